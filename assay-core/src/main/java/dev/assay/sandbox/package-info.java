/**
 * Confinement for untrusted commands (model-written code, the execute_command tool): bubblewrap with no network, a
 * read-only system, limits, and process-group kill.
 */
package dev.assay.sandbox;
