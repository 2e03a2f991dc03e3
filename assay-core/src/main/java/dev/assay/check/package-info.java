/** Checkers: the Checker plug-in interface, its registry by name, verdicts, and the built-in checkers. */
package dev.assay.check;
