package dev.assay.tools;

/**
 * A source of the tools a model driven by Assay's agent loop is offered, found by name through
 * {@link dev.assay.Plugins} ({@code META-INF/services/dev.assay.tools.ToolProvider}): {@code workspace} (the built-in
 * workspace tools) and {@code mcp} (the tools of the run's MCP servers) are Assay's own. Every provider is opened once
 * per run; the tools are offered in provider order, then filtered by the run's allowed-tool list. Implementations are
 * thread-safe.
 */
public interface ToolProvider {
    /** {@return the provider's name; what it records in the run's snapshot goes under this key} */
    String name();

    /**
     * {@return this source's tools for one run} A server that cannot be reached makes its tools unavailable (logged and
     * recorded in the snapshot), never a failure of the run.
     */
    Toolbox open(ToolRequest request) throws InterruptedException;
}
