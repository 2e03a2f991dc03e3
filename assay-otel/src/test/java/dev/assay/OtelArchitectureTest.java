package dev.assay;

/** assay-core's layers, checked with assay-otel's {@code run.otel} (the Runs layer) on the class path. */
class OtelArchitectureTest extends ArchitectureTest {}
