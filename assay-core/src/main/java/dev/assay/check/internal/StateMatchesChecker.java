package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import dev.assay.tools.ToolResult;
import dev.assay.tools.environment.Environment;
import dev.assay.tools.environment.TrialEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code state_matches}: the environment's state at the trial's end equals the expected state as JSON (key order
 * ignored, numbers by value), as τ²-bench's database check. Expected: {@code {"actions": [{"name": ..., "arguments":
 * {...}}, ...]}}, whose expected state is that of another fresh environment after the actions are called on it in
 * order, or {@code {"state": {...}}} given literally; either with {@code "ignore": ["/json/pointer", ...]}, parts not
 * compared. A gold action that fails is listed in the detail and the comparison goes on, as in τ²-bench. Fails with
 * {@code state_matches.differs}, the detail listing the differences as JSON pointers with both values; a case without
 * an environment is an error ({@code state_matches.no_environment}), as is a fresh environment that fails
 * ({@code environment.*}).
 *
 * @param actions the gold actions; null when the state is given
 * @param state the expected state; null when the actions give it
 * @param ignore JSON pointers not compared
 */
record StateMatchesChecker(List<GoldAction> actions, JsonNode state, List<String> ignore) implements Checker {
    static final String NAME = "state_matches";
    static final CheckerFactory FACTORY = new BuiltinFactory(NAME, StateMatchesChecker::create);

    static StateMatchesChecker create(JsonNode node) {
        var expected = Expected.of(NAME, node);
        if (!expected.isObject()) {
            throw expected.invalid("an object {\"actions\": [...]} or {\"state\": {...}}, with an optional \"ignore\"");
        }
        expected.onlyKeys(Set.of("actions", "state", "ignore"));
        JsonNode actions = expected.field("actions");
        JsonNode state = expected.field("state");
        if ((actions == null) == (state == null)) {
            throw expected.invalid("actions", "either 'actions' or 'state', not both and not neither", node);
        }
        var ignore = new ArrayList<String>();
        JsonNode ignored = expected.field("ignore");
        if (ignored != null) {
            for (String pointer : expected.texts("ignore", ignored)) {
                if (!pointer.startsWith("/")) {
                    throw expected.invalid("ignore", "JSON pointers, each starting with '/'", ignored);
                }
                ignore.add(pointer);
            }
        }
        return new StateMatchesChecker(
                actions == null ? null : GoldAction.list(NAME, "actions", actions, true),
                state == null ? null : state.deepCopy(),
                List.copyOf(ignore));
    }

    @Override
    public Verdict check(CheckContext context) throws InterruptedException {
        TrialEnvironment environment = context.environment();
        if (environment == null) {
            return Verdict.error(Problem.of(
                    "state_matches.no_environment",
                    "state_matches compares an environment's state, and the case names no environment"));
        }
        ObjectNode detail = Json.object();
        JsonNode expectedState;
        if (actions == null) {
            detail.put("compared_with", "state");
            expectedState = state;
        } else {
            detail.put("compared_with", "actions");
            try {
                expectedState = goldState(environment, detail.putArray("gold_failures"));
            } catch (AssayException e) {
                return Verdict.error(e.problem());
            }
        }
        ArrayNode differences = JsonDifferences.of(expectedState, environment.endState(), ignore);
        if (!ignore.isEmpty()) {
            detail.set("ignore", Json.tree(ignore));
        }
        detail.put("difference_count", differences.size());
        ArrayNode shown = detail.putArray("differences");
        for (int index = 0; index < Math.min(differences.size(), JsonDifferences.SHOWN); index++) {
            shown.add(differences.get(index));
        }
        if (differences.isEmpty()) {
            return Verdict.passed(detail);
        }
        return Verdict.failed(
                "state_matches.differs",
                "the end state differs from the expected one at " + differences.size() + " place(s), first at "
                        + differences.get(0).path("pointer").asText(),
                detail);
    }

    /** The state of a fresh environment after the gold actions, each failure noted in {@code failures}. */
    private JsonNode goldState(TrialEnvironment trial, ArrayNode failures) throws InterruptedException {
        try (Environment fresh = trial.fresh()) {
            for (GoldAction action : actions) {
                ToolResult result = fresh.call(action.name(), action.arguments());
                if (!result.ok()) {
                    ObjectNode failure = action.toJson();
                    failure.set("error", Json.tree(result.error()));
                    failures.add(failure);
                }
            }
            return fresh.state();
        }
    }
}
