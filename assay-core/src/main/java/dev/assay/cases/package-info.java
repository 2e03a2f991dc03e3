/**
 * Cases and suites: the case model, the loaders for the native (JSON, JSONL, YAML) and reference-server formats,
 * validation with file, line and field, and versioned suite snapshots.
 */
package dev.assay.cases;
