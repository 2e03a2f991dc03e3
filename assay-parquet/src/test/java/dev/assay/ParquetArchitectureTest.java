package dev.assay;

/** assay-core's layers and the modules' rules, checked with assay-parquet's {@code cases.parquet} on the class path. */
class ParquetArchitectureTest extends ArchitectureTest {}
