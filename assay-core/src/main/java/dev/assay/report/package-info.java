/**
 * Reports: a run with its items written as JSON ({@code report.json}), Markdown, JUnit XML and HTML, through the
 * Reporter plug-in interface.
 */
package dev.assay.report;
