package dev.assay.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.sandbox.Sandbox;

/** Calls built-in tools the way the agent loop does: by name, with a JSON arguments object. */
public final class ToolTesting {
    private ToolTesting() {}

    public static Tool tool(String name) {
        return tool(name, new ProcessSandbox());
    }

    public static Tool tool(String name, Sandbox sandbox) {
        return BuiltinTools.all(sandbox).stream()
                .filter(tool -> tool.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** Arguments written with single quotes for readability: {@code "{'path': 'a.txt'}"}. */
    public static JsonNode args(String singleQuotedJson) {
        return Json.parse(singleQuotedJson.replace('\'', '"'));
    }

    public static ToolResult call(String name, Workspace workspace, String singleQuotedJson)
            throws InterruptedException {
        return tool(name).call(args(singleQuotedJson), workspace);
    }
}
