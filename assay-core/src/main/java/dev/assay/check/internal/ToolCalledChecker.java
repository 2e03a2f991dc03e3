package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import dev.assay.tools.ToolNames;
import java.util.List;
import java.util.Set;

/**
 * {@code tool_called}: every expected tool was called at least once. Names on both sides are compared in canonical form
 * ({@link ToolNames#canonical}), so {@code 读取文件} and {@code read_file} are the same tool. Expected: {@code "name"},
 * {@code ["a", "b"]} (all required), or {@code {"tool": "name" | [...], "require_success": false}}.
 *
 * <p>A call counts even when its execution failed, as in the reference: a model that picked the right tool with a bad
 * argument did pick it (the arguments are {@code tool_args}' business). The wart the reference had (docs/checkers.md,
 * "tool_called") is that nobody could tell; here each call's outcome is in the detail, and {@code require_success:
 * true} makes only successful calls count.
 *
 * @param tools the canonical names, all required
 * @param requireSuccess count only calls whose output reported success
 */
record ToolCalledChecker(List<String> tools, boolean requireSuccess) implements Checker {
    @Override
    public List<String> requiredTools() {
        return tools;
    }

    static final CheckerFactory FACTORY = new BuiltinFactory("tool_called", ToolCalledChecker::create);

    ToolCalledChecker {
        tools = List.copyOf(tools);
    }

    static ToolCalledChecker create(JsonNode node) {
        var expected = Expected.of("tool_called", node);
        JsonNode names = node;
        boolean requireSuccess = false;
        if (expected.isObject()) {
            expected.onlyKeys(Set.of("tool", "require_success"));
            names = expected.requiredField("tool");
            requireSuccess = expected.flag("require_success", false);
        }
        var tools = expected.texts("tool", names).stream()
                .map(ToolNames::canonical)
                .distinct()
                .toList();
        return new ToolCalledChecker(tools, requireSuccess);
    }

    @Override
    public Verdict check(CheckContext context) {
        List<ToolEvidence> calls = ToolEvidence.of(context.transcript());
        List<String> missing = tools.stream()
                .filter(tool -> calls.stream().noneMatch(call -> call.name().equals(tool) && counts(call)))
                .toList();
        List<String> calledButFailed = missing.stream()
                .filter(tool -> calls.stream().anyMatch(call -> call.name().equals(tool)))
                .toList();
        ObjectNode detail = Json.object();
        detail.set("expected", Json.strings(tools));
        detail.put("require_success", requireSuccess);
        ArrayNode called = detail.putArray("called");
        calls.forEach(call -> called.add(call.describe()));
        detail.set("missing", Json.strings(missing));
        if (missing.isEmpty()) {
            return Verdict.passed(detail);
        }
        if (calledButFailed.size() == missing.size()) {
            return Verdict.failed(
                    "tool_called.only_failed", "only failed calls of " + String.join(", ", missing), detail);
        }
        return Verdict.failed("tool_called.not_called", "not called: " + String.join(", ", missing), detail);
    }

    private boolean counts(ToolEvidence call) {
        return !requireSuccess || Boolean.TRUE.equals(call.ok());
    }
}
