package dev.assay.check.promptfoo.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.Verdict;
import java.util.List;

/** What came of one assertion: promptfoo's grading result, or why it could not be judged. Immutable. */
public sealed interface Judged {

    /**
     * promptfoo's {@code GradingResult} of one assertion.
     *
     * @param pass whether the assertion passed, {@code not-} and threshold applied
     * @param score promptfoo's score; not always in [0, 1] (a script may return any number)
     * @param reason promptfoo's reason, {@code Assertion passed} when it passed
     * @param assertion the assertion's type and value as written
     * @param metric the named metric; null when none
     * @param components the results inside an {@code assert-set}, flattened as promptfoo flattens them; empty otherwise
     */
    record Grading(
            boolean pass, double score, String reason, ObjectNode assertion, String metric, List<Grading> components)
            implements Judged {
        public Grading {
            components = List.copyOf(components);
        }

        /** {@return a result of pass/fail, scored 1 or 0, with promptfoo's "Assertion passed" when it passed} */
        static Grading of(boolean pass, String failure, Assertion assertion) {
            return new Grading(
                    pass, pass ? 1 : 0, pass ? "Assertion passed" : failure, assertion.summary(), null, List.of());
        }

        Grading withPass(boolean newPass) {
            return new Grading(newPass, score, reason, assertion, metric, components);
        }

        Grading withMetric(String newMetric) {
            return new Grading(pass, score, reason, assertion, newMetric, components);
        }

        /** {@return the result as the check's detail: pass, score, reason, assertion, metric, componentResults} */
        ObjectNode toJson() {
            ObjectNode json = Json.object();
            json.put("pass", pass);
            json.put("score", score);
            json.put("reason", reason);
            json.set("assertion", assertion);
            if (metric != null) {
                json.put("metric", metric);
            }
            if (!components.isEmpty()) {
                ArrayNode results = json.putArray("componentResults");
                components.forEach(component -> results.add(component.toJson()));
            }
            return json;
        }
    }

    /**
     * The assertion could not be judged: what it needs is missing here (no judge model: skipped) or failed (the
     * sandbox, the judge model: an error), which says nothing of the answer.
     *
     * @param status {@link Verdict.Status#SKIPPED} or {@link Verdict.Status#ERROR}
     * @param problem why
     */
    record Unjudged(Verdict.Status status, Problem problem) implements Judged {}
}
