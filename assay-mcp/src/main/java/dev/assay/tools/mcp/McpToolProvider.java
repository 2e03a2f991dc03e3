package dev.assay.tools.mcp;

import dev.assay.tools.ToolProvider;
import dev.assay.tools.ToolRequest;
import dev.assay.tools.Toolbox;

/**
 * The tool provider {@code mcp}: the tools of the run's MCP servers, connected with the MCP Java SDK; each server that
 * cannot be used is logged. Found by {@link java.util.ServiceLoader}. Thread-safe (stateless).
 */
public final class McpToolProvider implements ToolProvider {
    @Override
    public String name() {
        return "mcp";
    }

    @Override
    public Toolbox open(ToolRequest request) throws InterruptedException {
        if (request.mcpServers().isEmpty()) {
            return Toolbox.EMPTY;
        }
        McpToolset toolset = McpToolset.connect(request.mcpServers(), request.mcpTimeout(), request.env());
        toolset.unavailable()
                .forEach((server, reason) ->
                        request.log().accept("MCP server " + server + " is unavailable: " + reason));
        return toolset;
    }
}
