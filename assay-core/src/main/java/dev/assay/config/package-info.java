/**
 * {@code assay.yaml}: the configuration file a team commits, naming targets, MCP servers, judge models and run
 * defaults. Secrets appear only as environment-variable names; every validation error names the file, line and field.
 */
package dev.assay.config;
