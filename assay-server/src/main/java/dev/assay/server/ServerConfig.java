package dev.assay.server;

import dev.assay.sandbox.Sandboxes;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/**
 * How the server is set up, built once by {@code assay serve} (or a test).
 *
 * @param host the address to bind; {@code 127.0.0.1} by default. On any address that is not loopback, reads need the
 *     token too
 * @param token the admin token every mutating call (and, off loopback, every read) must present; never blank
 * @param suitesDirectory the directory case sets are named relative to ({@code case_set} in a start body); nothing
 *     outside it can be run over HTTP
 * @param workspaceRoot where run workspaces are created, and dialog runs' files ({@code dialog/<run id>})
 * @param env reads environment variables: only the API key a start body names by its variable
 * @param datasetsDirectory the directory dialog datasets are named relative to ({@code dataset} in a dialog run's start
 *     body); by default the suites directory
 * @param queueDatabase the PostgreSQL database (JDBC URL, the store's) whose queue a start body with {@code "queue":
 *     true} puts its cases on, for workers ({@code assay worker}); null when the store is not PostgreSQL, and such a
 *     body is refused
 * @param sandboxes how a confining sandbox is found for the runs it starts and resumes ({@link Sandboxes#ISOLATING} by
 *     default): their commands and code checks run in it, or, where a run allows it and none is found, unconfined
 */
public record ServerConfig(
        String host,
        String token,
        Path suitesDirectory,
        Path workspaceRoot,
        Function<String, String> env,
        Path datasetsDirectory,
        String queueDatabase,
        Sandboxes.Finder sandboxes) {
    public static final String DEFAULT_HOST = "127.0.0.1";

    public ServerConfig {
        host = host == null || host.isBlank() ? DEFAULT_HOST : host.strip();
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("the admin token must not be blank");
        }
        suitesDirectory = Objects.requireNonNull(suitesDirectory, "suitesDirectory")
                .toAbsolutePath()
                .normalize();
        Objects.requireNonNull(workspaceRoot, "workspaceRoot");
        env = env == null ? System::getenv : env;
        datasetsDirectory = datasetsDirectory == null
                ? suitesDirectory
                : datasetsDirectory.toAbsolutePath().normalize();
        sandboxes = sandboxes == null ? Sandboxes.ISOLATING : sandboxes;
    }

    /** Sandboxes found as {@link Sandboxes#ISOLATING} finds them. */
    public ServerConfig(
            String host,
            String token,
            Path suitesDirectory,
            Path workspaceRoot,
            Function<String, String> env,
            Path datasetsDirectory,
            String queueDatabase) {
        this(host, token, suitesDirectory, workspaceRoot, env, datasetsDirectory, queueDatabase, null);
    }

    /** No queue. */
    public ServerConfig(
            String host,
            String token,
            Path suitesDirectory,
            Path workspaceRoot,
            Function<String, String> env,
            Path datasetsDirectory) {
        this(host, token, suitesDirectory, workspaceRoot, env, datasetsDirectory, null);
    }

    /** Dialog datasets in the suites directory, no queue. */
    public ServerConfig(
            String host, String token, Path suitesDirectory, Path workspaceRoot, Function<String, String> env) {
        this(host, token, suitesDirectory, workspaceRoot, env, null, null);
    }

    /** {@return a copy whose start bodies may queue their cases in that database} */
    public ServerConfig withQueue(String jdbcUrl) {
        return new ServerConfig(
                host, token, suitesDirectory, workspaceRoot, env, datasetsDirectory, jdbcUrl, sandboxes);
    }

    /** {@return a copy that finds sandboxes with {@code finder}} */
    public ServerConfig withSandboxes(Sandboxes.Finder finder) {
        return new ServerConfig(
                host, token, suitesDirectory, workspaceRoot, env, datasetsDirectory, queueDatabase, finder);
    }

    /** {@return whether reads need the token as well: true unless bound to a loopback address} */
    public boolean readsNeedToken() {
        try {
            return !InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return true;
        }
    }
}
