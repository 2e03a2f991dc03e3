package dev.assay;

/** assay-core's layers, checked with assay-promptfoo's {@code promptfoo} (the Formats layer) on the class path. */
class PromptfooArchitectureTest extends ArchitectureTest {}
