package dev.assay;

/** assay-core's layers, checked with assay-anthropic's {@code model.anthropic} (the Models layer) on the class path. */
class AnthropicArchitectureTest extends ArchitectureTest {}
