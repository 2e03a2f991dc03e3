package dev.assay;

/** assay-core's layers and the modules' rules, checked with the benchmarks ({@code bench}) on the class path. */
class BenchArchitectureTest extends ArchitectureTest {}
