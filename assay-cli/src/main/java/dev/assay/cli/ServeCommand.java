package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.check.CheckerRegistry;
import dev.assay.config.AssayConfig;
import dev.assay.run.Engine;
import dev.assay.run.RunSettings;
import dev.assay.server.AdminToken;
import dev.assay.server.AssayServer;
import dev.assay.server.ServerConfig;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import io.javalin.Javalin;
import io.javalin.util.JavalinBindException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code assay serve}: the web page and the REST/SSE API over the same database as the other commands.
 * {@link ViewCommand} is the same server that then opens the page in a browser.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Serve the web page and the REST/SSE API (Ctrl-C stops; running runs are cancelled, "
                + "finished items kept).")
class ServeCommand implements Callable<Integer>, EnvironmentFactory.NeedsEnvironment {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    DatabaseOption database;

    @Option(
            names = {"-p", "--port"},
            paramLabel = "<port>",
            defaultValue = "7070",
            converter = OptionValues.Port.class,
            description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--host",
            paramLabel = "<address>",
            defaultValue = ServerConfig.DEFAULT_HOST,
            description = "Address to bind (default: ${DEFAULT-VALUE}). On any other address reads need the token too.")
    String host;

    @Option(
            names = "--token",
            paramLabel = "<token>",
            converter = OptionValues.Token.class,
            description = "Admin token for mutating calls, at least " + OptionValues.MIN_TOKEN_LENGTH + " characters "
                    + "(default: $ASSAY_TOKEN, else one generated and kept in $ASSAY_HOME/" + AdminToken.FILE_NAME
                    + ").")
    String token;

    @Option(
            names = "--suites",
            paramLabel = "<dir>",
            description = "Directory whose case sets the page and the API may run (default: the project's examples/).")
    Path suites;

    @Option(
            names = "--datasets",
            paramLabel = "<dir>",
            description = "Directory whose dialog datasets (.jsonl) the page and the API may run (default: --suites).")
    Path datasets;

    @Option(
            names = "--workspace-dir",
            paramLabel = "<dir>",
            description = "Where case workspaces are created (default: $ASSAY_HOME/workspaces).")
    Path workspaceDir;

    @Option(
            names = "--config",
            paramLabel = "<file>",
            description = "An assay.yaml whose judge models grade the judge checks of the runs this server starts "
                    + "(default: ./assay.yaml when it exists).")
    Path configFile;

    Map<String, String> env = Map.of();

    @Override
    public void environment(Map<String, String> environment) {
        this.env = environment;
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        String adminToken = token != null
                ? token
                : env.get("ASSAY_TOKEN") != null && !env.get("ASSAY_TOKEN").isBlank()
                        ? environmentToken()
                        : AdminToken.loadOrCreate(database.home());
        if (suites != null && !Files.isDirectory(suites)) {
            throw new ParameterException(spec.commandLine(), "--suites " + suites + " is not a directory");
        }
        if (datasets != null && !Files.isDirectory(datasets)) {
            throw new ParameterException(spec.commandLine(), "--datasets " + datasets + " is not a directory");
        }
        requireFreePort(requireLocalAddress());
        if (workspaceDir != null) {
            OutputDirectories.requireWritable(spec.commandLine(), "--workspace-dir", workspaceDir);
        }
        var config = new ServerConfig(
                host,
                adminToken,
                suites != null ? suites : defaultSuites(),
                workspaceDir != null ? workspaceDir : database.home().resolve("workspaces"),
                env::get,
                datasets,
                // A start body may queue its cases for workers only where workers can reach the database.
                database.url().startsWith("jdbc:postgresql://") ? database.url() : null);
        try (Store store = database.open()) {
            CheckerRegistry checkers = CheckerRegistry.builtins();
            Javalin app = AssayServer.create(config, new Engine(store), store, checkers, judgeSettings());
            try {
                app.start(port);
            } catch (JavalinBindException e) {
                // Taken between the check and the start: Javalin has logged its guess, the cause is in the chain.
                app.stop();
                throw cannotListen(rootMessage(e));
            }
            var stopped = new CountDownLatch(1);
            Thread stopOnSignal = new Thread(
                    () -> {
                        app.stop();
                        stopped.countDown();
                    },
                    "assay-serve-stop");
            Runtime.getRuntime().addShutdownHook(stopOnSignal);
            String shownHost = host.contains(":") ? "[" + host + "]" : host;
            out.printf("Assay is serving http://%s:%d/#token=%s%n", shownHost, app.port(), adminToken);
            out.printf(
                    "case sets: %s; database: %s; Ctrl-C stops%n",
                    config.suitesDirectory(), Stores.redact(database.url()));
            out.flush();
            served(shownHost, app.port(), out);
            try {
                stopped.await();
            } catch (InterruptedException interrupted) {
                // Stopped by the thread that ran the command (an embedding, a test) rather than by a signal.
                app.stop();
                Runtime.getRuntime().removeShutdownHook(stopOnSignal);
                throw interrupted;
            }
            return ExitCodes.OK;
        }
    }

    /**
     * Called once the server answers, its address printed: {@code serve} does nothing more.
     *
     * @param shownHost the host as the printed address shows it (an IPv6 address in brackets)
     * @param port the port it listens on
     * @param out where the command prints
     */
    void served(String shownHost, int port, PrintWriter out) {}

    /** {@return the judge models of assay.yaml ({@code --config} or ./assay.yaml), for every run the server starts} */
    private RunSettings judgeSettings() {
        AssayConfig config = ConfigurationFile.load(configFile);
        return config == null ? new RunSettings() : config.judgeSettings();
    }

    private String environmentToken() {
        try {
            return OptionValues.requireTokenLength(env.get("ASSAY_TOKEN"), "$ASSAY_TOKEN ");
        } catch (CommandLine.TypeConversionException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /**
     * Refuses a {@code --host} that is no address of this machine before the server tries to bind it (Javalin would
     * report any bind failure as a busy port).
     */
    private InetAddress requireLocalAddress() {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), "--host " + host + " is not a known host name or address");
        }
        try {
            if (!address.isAnyLocalAddress()
                    && !address.isLoopbackAddress()
                    && NetworkInterface.getByInetAddress(address) == null) {
                String resolved = host.equals(address.getHostAddress()) ? "" : " (" + address.getHostAddress() + ")";
                throw new ParameterException(
                        spec.commandLine(), "--host " + host + resolved + " is not an address of this machine");
            }
        } catch (SocketException e) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--host " + host + ": cannot list this machine's " + "addresses: " + e.getMessage());
        }
        return address;
    }

    /** A taken port is found here, in the system's words, before Javalin would log an error of its own for it. */
    private void requireFreePort(InetAddress address) {
        if (port == 0) {
            return;
        }
        try (var probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(address, port));
        } catch (IOException e) {
            throw cannotListen(e.getMessage());
        }
    }

    private AssayException cannotListen(String reason) {
        return new AssayException(Problem.of(
                        "server.cannot_listen",
                        "cannot listen on " + host + " port " + port + ": " + reason
                                + "; choose another --port (0 picks a free one)")
                .withDetail("field", "port"));
    }

    /** The innermost message (Jetty's "Address already in use"), not Javalin's guess at the cause. */
    private static String rootMessage(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    /** The {@code examples} directory of the project the jar was built in, else {@code ./examples}. */
    private static Path defaultSuites() {
        var source = ServeCommand.class.getProtectionDomain().getCodeSource();
        if (source != null) {
            try {
                for (Path dir = Path.of(source.getLocation().toURI()).getParent(); dir != null; dir = dir.getParent()) {
                    if (Files.isDirectory(dir.resolve("examples"))) {
                        return dir.resolve("examples");
                    }
                }
            } catch (URISyntaxException | IllegalArgumentException e) {
                // Not a file location (a jar inside a jar): fall back to the working directory.
            }
        }
        return Path.of("examples");
    }
}
