/**
 * Environments: a stateful MCP server per trial that holds a domain's state and offers its tools, started fresh for
 * each trial (and for each state comparison), read at the trial's end through its state resource, and stopped after it
 * (docs/environments.md).
 */
package dev.assay.tools.environment;
