package dev.assay.subject.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.DeclaredTools;
import dev.assay.cases.DeclaredTools.DeclaredFunction;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A function a case declares (BFCL-style function calling): nothing is executed, the call's result comes from the
 * case's {@code tool_results}. An entry that is a list of {@code {args, result}} gives the result of the first entry
 * whose {@code args} the call's arguments contain (an entry without {@code args} matches any call); any other entry is
 * the result of every call. Without an entry, or when no listed entry matches, the call gets {@link #ACKNOWLEDGEMENT}.
 * A text result is sent as it is, any other JSON as JSON. Thread-safe.
 *
 * @param function the declaration
 * @param result the function's {@code tool_results} entry as written; null for none
 */
public record DeclaredFunctionTool(DeclaredFunction function, JsonNode result) implements Tool {
    /** What a call returns when the case gives no result for it. */
    public static final String ACKNOWLEDGEMENT = "{\"status\": \"ok\"}";

    /** Numbers compare by value (2 matches 2.0); everything else by equality. */
    private static final Comparator<JsonNode> VALUES =
            (a, b) -> a.isNumber() && b.isNumber() ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;

    /** {@return the tools for a case's declared functions, each with its result entry} */
    public static List<Tool> of(DeclaredTools declared) {
        Map<String, JsonNode> results = declared.results();
        return declared.functions().stream()
                .<Tool>map(function -> new DeclaredFunctionTool(function, results.get(function.name())))
                .toList();
    }

    @Override
    public String name() {
        return function.name();
    }

    @Override
    public String description() {
        return function.description();
    }

    @Override
    public JsonNode parameters() {
        return function.parameters();
    }

    @Override
    public ToolResult call(JsonNode arguments, Workspace workspace) {
        JsonNode chosen = result;
        if (result != null && DeclaredTools.isMatchedList(result)) {
            chosen = null;
            for (JsonNode entry : result) {
                if (contains(arguments, entry.path("args"))) {
                    chosen = entry.get("result");
                    break;
                }
            }
        }
        if (chosen == null) {
            return ToolResult.ok(ACKNOWLEDGEMENT);
        }
        return ToolResult.ok(chosen.isTextual() ? chosen.textValue() : Json.write(chosen));
    }

    private static boolean contains(JsonNode arguments, JsonNode wanted) {
        if (wanted.isMissingNode()) {
            return true;
        }
        for (var entry : wanted.properties()) {
            JsonNode actual = arguments == null ? null : arguments.get(entry.getKey());
            if (actual == null || !entry.getValue().equals(VALUES, actual)) {
                return false;
            }
        }
        return true;
    }
}
