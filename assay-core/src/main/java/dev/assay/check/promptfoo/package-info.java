/**
 * The {@code promptfoo} checker: one promptfoo assertion ({@code equals}, {@code contains}, {@code javascript},
 * {@code llm-rubric}, {@code assert-set}...) judged with promptfoo's own rules, its {@code not-} forms, threshold and
 * weight, for configs written for promptfoo. {@link dev.assay.check.promptfoo.PromptfooAssertions} says which types
 * Assay judges; docs/promptfoo-assertions.md lists them and every difference from promptfoo.
 */
package dev.assay.check.promptfoo;
