package dev.assay.tools;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How to reach one MCP server. Secrets are never part of it: environment variables and HTTP header values are named by
 * the variable that holds them, which is read only when connecting.
 */
public sealed interface McpServerConfig {
    /** Server names become the part before {@code @} of tool names, so they must not contain one. */
    Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    /** {@return the server's name, unique within a run; tools are offered as {@code name@tool}} */
    String name();

    /**
     * A server started as a child process speaking MCP over stdin/stdout.
     *
     * @param name the server's name (letters, digits, {@code _ . -})
     * @param command the executable
     * @param args its arguments; empty for none
     * @param env names of environment variables passed on to the process from Assay's environment; a named variable
     *     that is not set makes the server unavailable. Empty for none
     */
    record Stdio(String name, String command, List<String> args, List<String> env) implements McpServerConfig {
        public Stdio {
            checkName(name);
            if (command == null || command.isBlank()) {
                throw invalid(name, "command", "give the command that starts the server");
            }
            args = args == null ? List.of() : List.copyOf(args);
            env = env == null ? List.of() : List.copyOf(env);
        }
    }

    /**
     * A server reached over MCP's streamable HTTP transport.
     *
     * @param name the server's name (letters, digits, {@code _ . -})
     * @param url the MCP endpoint, e.g. {@code http://localhost:8080/mcp}
     * @param headers HTTP header name to the name of the environment variable holding its value (for example
     *     {@code Authorization -> GITHUB_MCP_AUTH}); empty for none
     */
    record Http(String name, String url, Map<String, String> headers) implements McpServerConfig {
        public Http {
            checkName(name);
            if (url == null || url.isBlank()) {
                throw invalid(name, "url", "give the server's MCP endpoint URL");
            }
            URI uri;
            try {
                uri = URI.create(url);
            } catch (IllegalArgumentException e) {
                throw invalid(name, "url", "not a URL: " + url);
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                throw invalid(name, "url", "the URL must start with http:// or https://");
            }
            headers = headers == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }
    }

    private static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw invalid(name, "name", "a server name is 1-64 letters, digits, '_', '.' or '-', got '" + name + "'");
        }
    }

    private static AssayException invalid(String server, String field, String message) {
        return new AssayException(Problem.of("config.invalid_mcp_server", "MCP server '" + server + "': " + message)
                .withDetail("server", server)
                .withDetail("field", field));
    }
}
