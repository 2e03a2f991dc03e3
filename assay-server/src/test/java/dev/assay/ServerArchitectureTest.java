package dev.assay;

/**
 * assay-core's layers and the modules' rules, checked with the server ({@code server}) and the integration modules it
 * bundles on the class path.
 */
class ServerArchitectureTest extends ArchitectureTest {}
