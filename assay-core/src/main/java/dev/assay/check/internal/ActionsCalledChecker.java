package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import dev.assay.transcript.TranscriptEvent;
import java.util.List;
import java.util.Set;

/**
 * {@code actions_called}: each listed action was called by the system under test, as τ²-bench's action check: a call of
 * the same tool whose arguments equal the action's, only the action's argument names (or its {@code compare_args})
 * compared, in any order and among any other calls. Expected: {@code {"actions": [{"name": ..., "arguments": {...}},
 * ...]}}. Fails with {@code actions_called.missing}, the detail marking each action found or not.
 *
 * @param actions the actions that must have been called
 */
record ActionsCalledChecker(List<GoldAction> actions) implements Checker {
    static final String NAME = "actions_called";
    static final CheckerFactory FACTORY = new BuiltinFactory(NAME, ActionsCalledChecker::create);

    static ActionsCalledChecker create(JsonNode node) {
        var expected = Expected.of(NAME, node);
        if (!expected.isObject()) {
            throw expected.invalid("an object {\"actions\": [{name, arguments}, ...]}");
        }
        expected.onlyKeys(Set.of("actions"));
        return new ActionsCalledChecker(GoldAction.list(NAME, "actions", expected.requiredField("actions"), false));
    }

    @Override
    public Verdict check(CheckContext context) {
        List<TranscriptEvent.ToolCall> calls = context.transcript().toolCalls();
        ObjectNode detail = Json.object();
        ArrayNode listed = detail.putArray("actions");
        int missing = 0;
        for (GoldAction action : actions) {
            boolean called = calls.stream().anyMatch(call -> action.matches(call.tool(), call.arguments()));
            ObjectNode entry = action.toJson();
            entry.put("called", called);
            listed.add(entry);
            missing += called ? 0 : 1;
        }
        if (missing == 0) {
            return Verdict.passed(detail);
        }
        return Verdict.failed(
                "actions_called.missing",
                missing + " of " + actions.size() + " actions were not called with those arguments",
                detail);
    }
}
