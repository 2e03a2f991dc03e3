/**
 * Code questions: tests parsed from a question's own examples (or given explicitly), the model's code run against them
 * in a sandbox through per-language harnesses, and outputs compared per question. The entry point for the engine is
 * {@link dev.assay.code.internal.CodeCheckerFactory} (checker name {@code code}).
 */
package dev.assay.code;
