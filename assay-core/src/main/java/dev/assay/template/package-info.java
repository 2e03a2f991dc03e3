/**
 * Prompt templates in the Nunjucks dialect promptfoo users write ({@code {{ question | upper }}}), rendered by Jinjava:
 * the dataset and promptfoo loaders fill a case's prompt from a row's or a test's variables with it.
 */
package dev.assay.template;
