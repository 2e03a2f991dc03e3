/**
 * PostgreSQL as a store ({@link dev.assay.store.postgres.PostgresDialect}, the {@code postgresql} store dialect), with
 * its driver and Flyway migrations; the module assay-postgres.
 */
package dev.assay.store.postgres;
