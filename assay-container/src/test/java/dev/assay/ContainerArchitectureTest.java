package dev.assay;

/**
 * assay-core's layers, checked with assay-container's {@code sandbox.container} (the Foundation layer) on the class
 * path.
 */
class ContainerArchitectureTest extends ArchitectureTest {}
