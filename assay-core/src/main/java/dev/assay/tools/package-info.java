/**
 * Tools offered to models: the workspace that confines them, the built-in workspace tools, and the alias table that
 * maps every tool name to its canonical form.
 */
package dev.assay.tools;
