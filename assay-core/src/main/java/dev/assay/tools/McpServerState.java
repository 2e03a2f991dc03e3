package dev.assay.tools;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What preparing a run found of one MCP server, as its snapshot ({@code McpToolset#snapshot()}) records it beside the
 * server's configuration: {@code {name, status, tools | reason, ...}}.
 *
 * @param name the server's name ({@link McpServerConfig#name()})
 * @param status whether it connected
 * @param reason why it could not be used; null when available
 * @param tools the tools it offered, as {@code name@tool}; empty when unavailable
 */
public record McpServerState(String name, Status status, String reason, List<String> tools) {
    /** Whether a server connected. */
    public enum Status {
        @JsonProperty("available")
        AVAILABLE,
        @JsonProperty("unavailable")
        UNAVAILABLE
    }

    public McpServerState {
        tools = tools == null ? List.of() : List.copyOf(tools);
    }

    /**
     * {@return the servers a run's MCP snapshot holds, in its order}; empty when no MCP server was configured
     *
     * @param snapshot the snapshot as stored: {@code {"servers": [...]}}, or JSON null or missing
     */
    public static List<McpServerState> of(JsonNode snapshot) {
        var servers = new ArrayList<McpServerState>();
        if (snapshot != null) {
            snapshot.path("servers")
                    .forEach(server -> servers.add(Json.MAPPER.convertValue(server, McpServerState.class)));
        }
        return List.copyOf(servers);
    }

    /**
     * Explains missing {@code server@tool} prerequisites from what a run found of its MCP servers: the server was
     * unavailable (with its reason), is not configured, or does not offer that tool. Names without {@code @} are not
     * MCP tools and are left out. Pure function of its arguments, so reports can explain skips of stored runs.
     *
     * @param servers the run's MCP servers ({@link #of})
     * @param missingTools the tool names a case needed and the subject lacked
     * @return tool name to reason, in the order given
     */
    public static Map<String, String> skipReasons(List<McpServerState> servers, Collection<String> missingTools) {
        var byName = new LinkedHashMap<String, McpServerState>();
        servers.forEach(server -> byName.put(server.name(), server));
        var reasons = new LinkedHashMap<String, String>();
        for (String tool : missingTools) {
            int at = tool.indexOf('@');
            if (at < 0) {
                continue;
            }
            String name = tool.substring(0, at);
            McpServerState server = byName.get(name);
            if (server == null) {
                reasons.put(tool, "MCP server '" + name + "' is not configured");
            } else if (server.status() == Status.UNAVAILABLE) {
                reasons.put(tool, "MCP server '" + name + "' is unavailable: " + server.reason());
            } else {
                reasons.put(tool, "MCP server '" + name + "' does not offer '" + tool.substring(at + 1) + "'");
            }
        }
        return reasons;
    }
}
