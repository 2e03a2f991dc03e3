/**
 * Persistence: the Store interface and its JDBI implementation over SQLite and PostgreSQL, schema by Flyway.
 * {@link dev.assay.store.Stores#open(String)} is the way in; everything else here is package-private.
 */
package dev.assay.store;
