package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.DeclaredTools;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import dev.assay.check.internal.ArgumentRule.ArgumentError;
import dev.assay.tools.ToolNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * {@code tool_args}: the model called a tool with acceptable arguments (BFCL's AST checker, docs/checkers.md,
 * "tool_args").
 *
 * <p>Expected, one call: {@code {"tool": "write_file", "args": {"path": ["a.txt", "./a.txt"], "content": ["x"]},
 * "allow_extra": false, "strings": "normalized"}} (see {@link ArgumentRule.Acceptable}), or the reference form
 * {@code {"tool": ..., "required": {...}}} (see {@link ArgumentRule.Subset}). Any call of the tool that satisfies the
 * rule passes, so an agent that retried is not punished for its first attempt.
 *
 * <p>Expected, parallel calls: a list of such objects. The calls considered are those of the tools the list names; each
 * expected call is matched greedily, in list order, against the first not-yet-matched call of its tool that satisfies
 * it, so the order of the model's calls does not matter. All matched and as many calls as expected: pass. All matched
 * but extra calls: {@code tool_args.wrong_count}.
 *
 * <p>Score: 1 on pass; 0.5 ({@link Verdict#partial}) when every expected tool was called but the arguments (or, for a
 * list, the count) are wrong; 0 with {@code tool_args.tool_not_called} when an expected tool was never called. The
 * error type of a partial verdict is that of the first error of the closest attempt.
 *
 * <p>When the case declares the function ({@link DeclaredTools}), its schema also judges the arguments
 * ({@link DeclaredSchemaRule}), and names are compared as declared rather than through the alias table. With
 * {@code "match": "bfcl"} the leaderboard's rules apply instead ({@link BfclArguments}): every call counts, their
 * number must equal the expected number, and a verdict is pass or fail.
 *
 * @param calls the expected calls
 * @param parallel whether the expectation was written as a list
 * @param bfcl whether BFCL's rules apply ({@code "match": "bfcl"})
 */
record ToolArgsChecker(List<ExpectedCall> calls, boolean parallel, boolean bfcl) implements Checker {
    @Override
    public List<String> requiredTools() {
        return calls.stream().map(ExpectedCall::tool).toList();
    }

    static final CheckerFactory FACTORY = new BuiltinFactory("tool_args", ToolArgsChecker::create);
    static final double PARTIAL_SCORE = 0.5;
    static final String TOOL_NOT_CALLED = "tool_args.tool_not_called";
    static final String WRONG_COUNT = "tool_args.wrong_count";
    static final String UNDECLARED_FUNCTION = "tool_args.undeclared_function";

    ToolArgsChecker {
        calls = List.copyOf(calls);
    }

    /**
     * One expected call.
     *
     * @param tool the tool name as written; compared as declared when the case declares it, else canonically
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
     * @param call the call
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
            var modes = new java.util.TreeSet<Boolean>();
            node.forEach(element -> {
                Expected call = Expected.of("tool_args", element);
                calls.add(expectedCall(call));
                modes.add(bfcl(call));
            });
            if (modes.size() > 1) {
                throw expected.invalid("match", "the same `match` on every expected call", null);
            }
            return new ToolArgsChecker(calls, true, modes.first());
        }
        if (!expected.isObject()) {
            throw expected.invalid(
                    "an object {\"tool\", \"args\"} or {\"tool\", \"required\"}, or a non-empty list" + " of them");
        }
        return new ToolArgsChecker(List.of(expectedCall(expected)), false, bfcl(expected));
    }

    /** {@code "match": "bfcl"} takes the leaderboard's rules whole, so Assay's own options do not combine with it. */
    private static boolean bfcl(Expected expected) {
        if (!expected.isObject()) {
            return false;
        }
        boolean bfcl =
                expected.choice("match", List.of("assay", "bfcl"), "assay").equals("bfcl");
        if (bfcl) {
            for (String option : List.of("allow_extra", "strings", "required")) {
                if (expected.field(option) != null) {
                    throw expected.invalid(
                            option,
                            "no '" + option + "' with \"match\": \"bfcl\" (BFCL's rules are"
                                    + " fixed: acceptable values in 'args')",
                            expected.field(option));
                }
            }
        }
        return bfcl;
    }

    private static ExpectedCall expectedCall(Expected expected) {
        if (!expected.isObject()) {
            throw expected.invalid("an object {\"tool\", \"args\"} or {\"tool\", \"required\"}");
        }
        expected.onlyKeys(Set.of("tool", "args", "required", "allow_extra", "strings", "match"));
        String tool = expected.text("tool", expected.requiredField("tool")).strip();
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
        args.properties().forEach(entry -> {
            if (entry.getValue().isArray() && entry.getValue().isEmpty()) {
                throw expected.invalid("args." + entry.getKey(), "at least one acceptable value", entry.getValue());
            }
        });
        String strings = expected.choice("strings", List.of("normalized", "exact", "bfcl"), "normalized");
        return new ExpectedCall(
                tool,
                new ArgumentRule.Acceptable(
                        ArgumentRule.Acceptable.paramsOf(args),
                        expected.flag("allow_extra", false),
                        ArgumentRule.Strings.valueOf(strings.toUpperCase(Locale.ROOT))));
    }

    @Override
    public Verdict check(CheckContext context) {
        DeclaredTools declared = context.evalCase() == null ? DeclaredTools.NONE : DeclaredTools.of(context.evalCase());
        // A declared function keeps its name (a function called `search` is not the built-in search_files).
        UnaryOperator<String> nameOf = name -> declared.function(name).isPresent() ? name : ToolNames.canonical(name);
        List<ExpectedCall> calls = this.calls.stream()
                .map(call -> new ExpectedCall(nameOf.apply(call.tool()), call.rule()))
                .toList();
        // A target that canonicalised the name it recorded (search → search_files) still kept the raw name.
        List<ToolEvidence> all = ToolEvidence.of(context.transcript()).stream()
                .map(call -> new ToolEvidence(
                        call.call(),
                        declared.function(call.call().rawName()).isPresent()
                                        && declared.function(call.call().tool()).isEmpty()
                                ? call.call().rawName()
                                : nameOf.apply(call.call().tool()),
                        call.ok()))
                .toList();
        if (bfcl) {
            var undeclared = calls.stream()
                    .map(ExpectedCall::tool)
                    .filter(tool -> declared.function(tool).isEmpty())
                    .toList();
            if (!undeclared.isEmpty()) {
                return Verdict.failed(
                        UNDECLARED_FUNCTION,
                        "\"match\": \"bfcl\" needs the declared schema of " + String.join(", ", undeclared),
                        Json.object());
            }
        }
        Judge judge = new Judge(declared, bfcl);
        List<ToolEvidence> relevant = bfcl
                ? all
                : all.stream()
                        .filter(call -> calls.stream()
                                .anyMatch(expected -> expected.tool().equals(call.name())))
                        .toList();
        ObjectNode detail = Json.object();
        ArrayNode expectedJson = detail.putArray("expected");
        calls.forEach(call -> expectedJson.add(call.toJson()));
        ArrayNode called = detail.putArray("called");
        all.forEach(call -> called.add(call.describe()));

        List<String> neverCalled = calls.stream()
                .map(ExpectedCall::tool)
                .distinct()
                .filter(tool -> relevant.stream().noneMatch(call -> call.name().equals(tool)))
                .toList();
        if (!neverCalled.isEmpty()) {
            detail.set("not_called", Json.tree(neverCalled));
            return Verdict.failed(TOOL_NOT_CALLED, "never called: " + String.join(", ", neverCalled), detail);
        }
        return parallel || bfcl ? matchAll(calls, relevant, judge, detail) : matchAny(calls, relevant, judge, detail);
    }

    /**
     * How one call's arguments are judged against one expected call on this case.
     *
     * @param declared the case's declared functions
     * @param bfcl whether BFCL's rules apply
     */
    private record Judge(DeclaredTools declared, boolean bfcl) {
        Attempt attempt(ExpectedCall expected, ToolEvidence call) {
            JsonNode arguments = call.arguments();
            var function = declared.function(expected.tool());
            if (bfcl) {
                var params = ((ArgumentRule.Acceptable) expected.rule()).params();
                return new Attempt(call, BfclArguments.errors(function.orElseThrow(), params, arguments));
            }
            var errors = new ArrayList<>(expected.rule().errors(arguments));
            function.ifPresent(declaration -> DeclaredSchemaRule.errors(declaration, arguments)
                    .forEach(error -> {
                        if (errors.stream()
                                .noneMatch(known -> known.type().equals(error.type())
                                        && known.param().equals(error.param()))) {
                            errors.add(error);
                        }
                    }));
            return new Attempt(call, errors);
        }

        /** BFCL has no partial credit: its failures score 0. */
        Verdict wrong(String type, String message, ObjectNode detail) {
            return bfcl ? Verdict.failed(type, message, detail) : Verdict.partial(PARTIAL_SCORE, type, message, detail);
        }
    }

    /** One expected call: any call of the tool that satisfies it passes. */
    private static Verdict matchAny(
            List<ExpectedCall> calls, List<ToolEvidence> relevant, Judge judge, ObjectNode detail) {
        ExpectedCall expected = calls.getFirst();
        List<Attempt> attempts =
                relevant.stream().map(call -> judge.attempt(expected, call)).toList();
        ArrayNode attemptsJson = detail.putArray("attempts");
        attempts.forEach(attempt -> attemptsJson.add(attempt.toJson()));
        var matched =
                attempts.stream().filter(attempt -> attempt.errors().isEmpty()).findFirst();
        detail.set(
                "matched_args",
                matched.map(attempt -> attempt.call().arguments()).orElse(null));
        if (matched.isPresent()) {
            return Verdict.passed(detail);
        }
        return wrongArguments(closest(attempts).errors(), judge, detail);
    }

    /** Parallel calls: greedy, order-free matching of each expected call against the calls not yet matched. */
    private static Verdict matchAll(
            List<ExpectedCall> calls, List<ToolEvidence> relevant, Judge judge, ObjectNode detail) {
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
                    Attempt attempt = judge.attempt(expected, call);
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
            pairing.put(
                    "matched_call_id",
                    match == null ? null : match.call().call().callId());
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
            return judge.wrong(
                    WRONG_COUNT,
                    "expected " + calls.size() + " calls" + (judge.bfcl() ? "" : " of " + toolList(calls)) + ", got "
                            + relevant.size(),
                    detail);
        }
        if (allMatched) {
            return Verdict.passed(detail);
        }
        if (firstFailure == null) {
            // Each call of the tool was already paired with an earlier expectation: the count per tool is off.
            return judge.wrong(WRONG_COUNT, "not enough calls of a tool to match every expectation", detail);
        }
        return wrongArguments(firstFailure, judge, detail);
    }

    private static Verdict wrongArguments(List<ArgumentError> errors, Judge judge, ObjectNode detail) {
        ArgumentError first = errors.getFirst();
        return judge.wrong(
                first.type(), "right tool, wrong arguments: " + first.type() + " at '" + first.param() + "'", detail);
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

    private static String toolList(List<ExpectedCall> calls) {
        return String.join(
                ", ", calls.stream().map(ExpectedCall::tool).distinct().toList());
    }
}
