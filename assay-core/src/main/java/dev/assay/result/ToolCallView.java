package dev.assay.result;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool call as reports and the store show it.
 *
 * @param name the canonical tool name
 * @param args the arguments object
 * @param ok whether the tool succeeded; null when the outcome is unknown (agent services may not say)
 */
public record ToolCallView(String name, JsonNode args, Boolean ok) {}
