/**
 * Runs: the engine (the one way to run an evaluation), its specification, listeners and the Run and Item records.
 */
package dev.assay.run;
