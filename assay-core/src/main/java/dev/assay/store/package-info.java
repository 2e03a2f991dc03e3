/**
 * Persistence: the Store interface and its JDBI implementation over SQLite and PostgreSQL, schema by Flyway.
 */
package dev.assay.store;
