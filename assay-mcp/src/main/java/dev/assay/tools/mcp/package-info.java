/**
 * MCP tools: servers configured by stdio command or streamable-HTTP URL, connected with the official MCP Java SDK,
 * their tools offered to models as {@code server@tool}. A server that is down, missing or slow is reported as
 * unavailable, never as a failure of the whole run.
 */
package dev.assay.tools.mcp;
