/**
 * The Java API: describe a run with {@link dev.assay.api.Assay}, run it through the engine, read the
 * {@link dev.assay.api.Evaluation} and hold it to a {@link dev.assay.api.Threshold}. What Java test suites use
 * (assay-junit builds on it); docs/java-api.md has a complete example.
 */
package dev.assay.api;
