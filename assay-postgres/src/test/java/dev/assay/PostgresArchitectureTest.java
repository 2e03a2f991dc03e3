package dev.assay;

/** assay-core's layers, checked with assay-postgres's {@code store.postgres} (the Store layer) on the class path. */
class PostgresArchitectureTest extends ArchitectureTest {}
