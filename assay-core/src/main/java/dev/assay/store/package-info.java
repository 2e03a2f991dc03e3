/**
 * Persistence: the Store interface and its JDBI implementation, schema by Flyway, over a
 * {@link dev.assay.store.StoreDialect} per database: SQLite's here, PostgreSQL's in assay-postgres.
 * {@link dev.assay.store.Stores#open(String)} is the way in.
 */
package dev.assay.store;
