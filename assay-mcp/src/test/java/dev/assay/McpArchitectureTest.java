package dev.assay;

/** assay-core's layers, checked with assay-mcp's {@code tools.mcp} (the Tools layer) on the class path. */
class McpArchitectureTest extends ArchitectureTest {}
