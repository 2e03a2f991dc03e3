/**
 * The {@code judge} checker: a separately configured model grades the final answer against a rubric, with a versioned
 * prompt, a robustly parsed JSON verdict, and a response cache keyed by the full request so re-scoring a run costs
 * nothing. {@link dev.assay.check.judge.Judge} is that machinery as an API for other features.
 */
package dev.assay.check.judge;
