package dev.assay;

/**
 * assay-core's layers and the modules' rules, checked with the CLI ({@code cli}), the server and every integration
 * module on the class path: the whole system the {@code assay} launcher ships.
 */
class CliArchitectureTest extends ArchitectureTest {}
