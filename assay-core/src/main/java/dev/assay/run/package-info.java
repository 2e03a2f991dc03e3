/** Runs: the engine (the one way to run an evaluation), what a run is asked to do, and its listeners. */
package dev.assay.run;
