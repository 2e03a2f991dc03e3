/**
 * Benchmarks run by hand (not part of the test suite): HumanEval graded end to end through the code checker's sandbox,
 * with the process-start floor measured the same way.
 */
package dev.assay.bench;
