package dev.assay.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.ArgumentRule.ArgumentError;
import dev.assay.tools.ToolNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code tool_args}: the model called a tool with acceptable arguments (BFCL's AST checker, peers.md §1c).
 * <p>
 * Expected, one call: {@code {"tool": "write_file", "args": {"path": ["a.txt", "./a.txt"], "content": ["x"]},
 * "allow_extra": false, "strings": "normalized"}} (see {@link ArgumentRule.Acceptable}), or the reference form
 * {@code {"tool": ..., "required": {...}}} (see {@link ArgumentRule.Subset}). Any call of the tool that satisfies
 * the rule passes, so an agent that retried is not punished for its first attempt.
 * <p>
 * Expected, parallel calls: a list of such objects. The calls considered are those of the tools the list names;
 * each expected call is matched greedily, in list order, against the first not-yet-matched call of its tool that
 * satisfies it, so the order of the model's calls does not matter. All matched and as many calls as expected:
 * pass. All matched but extra calls: {@code tool_args.wrong_count}.
 * <p>
 * Score: 1 on pass; 0.5 ({@link Verdict#partial}) when every expected tool was called but the arguments (or, for a
 * list, the count) are wrong; 0 with {@code tool_args.tool_not_called} when an expected tool was never called.
 * The error type of a partial verdict is that of the first error of the closest attempt.
 *
 * @param calls    the expected calls
 * @param parallel whether the expectation was written as a list
 */
record ToolArgsChecker(List<ExpectedCall> calls, boolean parallel) implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("tool_args", ToolArgsChecker::create);
    static final double PARTIAL_SCORE = 0.5;
    static final String TOOL_NOT_CALLED = "tool_args.tool_not_called";
    static final String WRONG_COUNT = "tool_args.wrong_count";

    ToolArgsChecker {
        calls = List.copyOf(calls);
    }

    /**
     * One expected call.
     *
     * @param tool the canonical tool name
     * @param rule how its arguments are judged
     */
    record ExpectedCall(String tool, ArgumentRule rule) {
        ObjectNode toJson() {
            ObjectNode node = Json.object();
            node.put("tool", tool);
            node.setAll(rule.toJson());
            return node;
        }
    }

    /**
     * The judgement of one call against one expected call.
     *
     * @param call   the call
     * @param errors its argument errors; empty when it satisfies the expectation
     */
    record Attempt(ToolEvidence call, List<ArgumentError> errors) {
        ObjectNode toJson() {
            ObjectNode node = call.describe();
            node.set("args", call.arguments());
            ArrayNode list = node.putArray("errors");
            errors.forEach(error -> list.add(error.toJson()));
            return node;
        }
    }

    static ToolArgsChecker create(JsonNode node) {
        var expected = Expected.of("tool_args", node);
        if (node != null && node.isArray() && !node.isEmpty()) {
            var calls = new ArrayList<ExpectedCall>();
            node.forEach(element -> calls.add(expectedCall(Expected.of("tool_args", element))));
            return new ToolArgsChecker(calls, true);
        }
        if (!expected.isObject()) {
            throw expected.invalid("an object {\"tool\", \"args\"} or {\"tool\", \"required\"}, or a non-empty list"
                    + " of them");
        }
        return new ToolArgsChecker(List.of(expectedCall(expected)), false);
    }

    private static ExpectedCall expectedCall(Expected expected) {
        if (!expected.isObject()) {
            throw expected.invalid("an object {\"tool\", \"args\"} or {\"tool\", \"required\"}");
        }
        expected.onlyKeys(Set.of("tool", "args", "required", "allow_extra", "strings"));
        String tool = ToolNames.canonical(expected.text("tool", expected.requiredField("tool")));
        JsonNode args = expected.field("args");
        JsonNode required = expected.field("required");
        if ((args == null) == (required == null)) {
            throw expected.invalid("args", "exactly one of 'args' (acceptable values) or 'required' (subset)", args);
        }
        if (required != null) {
            return new ExpectedCall(tool, new ArgumentRule.Subset(required));
        }
        if (!args.isObject()) {
            throw expected.invalid("args", "an object of argument name to acceptable values", args);
        }
        args.fields().forEachRemaining(entry -> {
            if (entry.getValue().isArray() && entry.getValue().isEmpty()) {
                throw expected.invalid("args." + entry.getKey(), "at least one acceptable value", entry.getValue());
            }
        });
        String strings = expected.choice("strings", List.of("normalized", "exact", "bfcl"), "normalized");
        return new ExpectedCall(tool, new ArgumentRule.Acceptable(ArgumentRule.Acceptable.paramsOf(args),
                expected.flag("allow_extra", false), ArgumentRule.Strings.valueOf(strings.toUpperCase(Locale.ROOT))));
    }

    @Override
    public Verdict check(CheckContext context) {
        List<ToolEvidence> all = ToolEvidence.of(context.transcript());
        List<ToolEvidence> relevant = all.stream()
                .filter(call -> calls.stream().anyMatch(expected -> expected.tool().equals(call.name())))
                .toList();
        ObjectNode detail = Json.object();
        ArrayNode expectedJson = detail.putArray("expected");
        calls.forEach(call -> expectedJson.add(call.toJson()));
        ArrayNode called = detail.putArray("called");
        all.forEach(call -> called.add(call.describe()));

        List<String> neverCalled = calls.stream().map(ExpectedCall::tool).distinct()
                .filter(tool -> relevant.stream().noneMatch(call -> call.name().equals(tool)))
                .toList();
        if (!neverCalled.isEmpty()) {
            detail.set("not_called", Json.tree(neverCalled));
            return Verdict.failed(TOOL_NOT_CALLED, "never called: " + String.join(", ", neverCalled), detail);
        }
        return parallel ? matchAll(relevant, detail) : matchAny(relevant, detail);
    }

    /** One expected call: any call of the tool that satisfies it passes. */
    private Verdict matchAny(List<ToolEvidence> relevant, ObjectNode detail) {
        ExpectedCall expected = calls.getFirst();
        List<Attempt> attempts = relevant.stream()
                .map(call -> new Attempt(call, expected.rule().errors(call.arguments())))
                .toList();
        ArrayNode attemptsJson = detail.putArray("attempts");
        attempts.forEach(attempt -> attemptsJson.add(attempt.toJson()));
        var matched = attempts.stream().filter(attempt -> attempt.errors().isEmpty()).findFirst();
        detail.set("matched_args", matched.map(attempt -> attempt.call().arguments()).orElse(null));
        if (matched.isPresent()) {
            return Verdict.passed(detail);
        }
        return wrongArguments(closest(attempts).errors(), detail);
    }

    /** Parallel calls: greedy, order-free matching of each expected call against the calls not yet matched. */
    private Verdict matchAll(List<ToolEvidence> relevant, ObjectNode detail) {
        var unmatched = new ArrayList<>(relevant);
        ArrayNode pairings = detail.putArray("pairings");
        List<ArgumentError> firstFailure = null;
        boolean allMatched = true;
        for (int i = 0; i < calls.size(); i++) {
            ExpectedCall expected = calls.get(i);
            var attempts = new ArrayList<Attempt>();
            Attempt match = null;
            for (ToolEvidence call : unmatched) {
                if (call.name().equals(expected.tool())) {
                    Attempt attempt = new Attempt(call, expected.rule().errors(call.arguments()));
                    attempts.add(attempt);
                    if (attempt.errors().isEmpty()) {
                        match = attempt;
                        break;
                    }
                }
            }
            ObjectNode pairing = pairings.addObject();
            pairing.put("expected_index", i);
            pairing.put("tool", expected.tool());
            pairing.put("matched_call_id", match == null ? null : match.call().call().callId());
            pairing.set("matched_args", match == null ? null : match.call().arguments());
            ArrayNode attemptsJson = pairing.putArray("attempts");
            attempts.forEach(attempt -> attemptsJson.add(attempt.toJson()));
            if (match != null) {
                unmatched.remove(match.call());
            } else {
                allMatched = false;
                if (firstFailure == null && !attempts.isEmpty()) {
                    firstFailure = closest(attempts).errors();
                }
            }
        }
        detail.put("expected_count", calls.size());
        detail.put("actual_count", relevant.size());
        if (relevant.size() != calls.size()) {
            return Verdict.partial(PARTIAL_SCORE, WRONG_COUNT,
                    "expected " + calls.size() + " calls of " + toolList() + ", got " + relevant.size(), detail);
        }
        if (allMatched) {
            return Verdict.passed(detail);
        }
        if (firstFailure == null) {
            // Each call of the tool was already paired with an earlier expectation: the count per tool is off.
            return Verdict.partial(PARTIAL_SCORE, WRONG_COUNT, "not enough calls of a tool to match every expectation",
                    detail);
        }
        return wrongArguments(firstFailure, detail);
    }

    private static Verdict wrongArguments(List<ArgumentError> errors, ObjectNode detail) {
        ArgumentError first = errors.getFirst();
        return Verdict.partial(PARTIAL_SCORE, first.type(),
                "right tool, wrong arguments: " + first.type() + " at '" + first.param() + "'", detail);
    }

    /** The attempt with the fewest errors; on a tie the later call, the model's last word. */
    private static Attempt closest(List<Attempt> attempts) {
        Attempt best = attempts.getFirst();
        for (Attempt attempt : attempts) {
            if (attempt.errors().size() <= best.errors().size()) {
                best = attempt;
            }
        }
        return best;
    }

    private String toolList() {
        return String.join(", ", calls.stream().map(ExpectedCall::tool).distinct().toList());
    }
}
