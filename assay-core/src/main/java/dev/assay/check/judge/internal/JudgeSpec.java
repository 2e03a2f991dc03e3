package dev.assay.check.judge.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.check.judge.JudgeCheckerFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A judge check's {@code expected}, validated.
 *
 * @param rubric what a good answer does; never blank
 * @param passFail whether the judge answers pass/fail instead of a score
 * @param min the lowest score (0 for pass/fail)
 * @param max the highest score, above {@code min} (1 for pass/fail)
 * @param threshold the raw score at or above which the check passes; null to grade (partial credit)
 * @param model the judge's configured name; null for the default judge (or a panel)
 * @param panel the configured names of a panel's judges, two or more; empty for one judge
 * @param aggregation how a panel's verdicts make the check's; null for one judge
 */
public record JudgeSpec(
        String rubric,
        boolean passFail,
        double min,
        double max,
        Double threshold,
        String model,
        List<String> panel,
        Aggregation aggregation) {
    static final String INVALID = "check.invalid_expected";
    private static final Set<String> KEYS = Set.of("rubric", "scale", "threshold", "model", "judges", "aggregation");

    /** How a panel's verdicts make the check's (docs/judge.md, "A panel of judges"). */
    public enum Aggregation {
        /** Passes when more than half the judges pass it. */
        MAJORITY,
        /** The judges' mean score, judged as one judge's score is. */
        MEAN,
        /** Passes when every judge passes it; the lowest credit otherwise. */
        ALL;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static JudgeSpec parse(JsonNode expected) {
        if (expected == null || !expected.isObject()) {
            throw invalid("expected", "an object with 'rubric' and 'scale'", expected);
        }
        for (Iterator<String> names = expected.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!KEYS.contains(name)) {
                throw invalid(name, "one of " + KEYS.stream().sorted().toList(), expected.get(name));
            }
        }
        JsonNode rubric = expected.get("rubric");
        if (rubric == null || !rubric.isTextual() || rubric.asText().isBlank()) {
            throw invalid("rubric", "a non-empty string", rubric);
        }
        JsonNode scale = expected.get("scale");
        boolean passFail;
        double min;
        double max;
        if (scale != null && scale.isTextual() && scale.asText().equals("pass_fail")) {
            passFail = true;
            min = 0;
            max = 1;
        } else if (scale != null
                && scale.isArray()
                && scale.size() == 2
                && scale.get(0).isNumber()
                && scale.get(1).isNumber()
                && scale.get(0).asDouble() < scale.get(1).asDouble()) {
            passFail = false;
            min = scale.get(0).asDouble();
            max = scale.get(1).asDouble();
        } else {
            throw invalid("scale", "\"pass_fail\" or [min, max] with min < max", scale);
        }
        JsonNode threshold = expected.get("threshold");
        Double limit = null;
        if (threshold != null && !threshold.isNull()) {
            if (passFail || !threshold.isNumber() || threshold.asDouble() < min || threshold.asDouble() > max) {
                throw invalid(
                        "threshold",
                        passFail ? "absent for a pass_fail scale" : "a number within the scale",
                        threshold);
            }
            limit = threshold.asDouble();
        }
        JsonNode model = expected.get("model");
        if (model != null
                && !model.isNull()
                && (!model.isTextual() || model.asText().isBlank())) {
            throw invalid("model", "the name of a configured judge", model);
        }
        JsonNode judges = expected.get("judges");
        var panel = new ArrayList<String>();
        if (judges != null && !judges.isNull()) {
            if (model != null && !model.isNull()) {
                throw invalid("judges", "absent when 'model' names one judge", judges);
            }
            if (!judges.isArray() || judges.size() < 2) {
                throw invalid("judges", "a list of two or more configured judges' names", judges);
            }
            for (JsonNode name : judges) {
                if (!name.isTextual() || name.asText().isBlank() || panel.contains(name.asText())) {
                    throw invalid("judges", "a list of distinct configured judges' names", judges);
                }
                panel.add(name.asText());
            }
        }
        JsonNode aggregation = expected.get("aggregation");
        Aggregation rule = null;
        if (aggregation != null && !aggregation.isNull()) {
            rule = Arrays.stream(Aggregation.values())
                    .filter(value -> aggregation.isTextual() && value.wireName().equals(aggregation.asText()))
                    .findFirst()
                    .orElseThrow(() -> invalid("aggregation", "\"majority\", \"mean\" or \"all\"", aggregation));
            if (panel.isEmpty()) {
                throw invalid("aggregation", "given with 'judges' only", aggregation);
            }
        }
        return new JudgeSpec(
                rubric.asText(),
                passFail,
                min,
                max,
                limit,
                model == null || model.isNull() ? null : model.asText(),
                List.copyOf(panel),
                panel.isEmpty() ? null : rule == null ? Aggregation.MAJORITY : rule);
    }

    public static AssayException invalid(String field, String what, JsonNode got) {
        String shape = got == null ? "nothing" : got.getNodeType().name().toLowerCase(Locale.ROOT);
        return new AssayException(Problem.of(INVALID, "judge: '" + field + "' must be " + what + ", got " + shape)
                .withDetail("checker", JudgeCheckerFactory.NAME)
                .withDetail("field", field)
                .withDetail("expected", what)
                .withDetail("got", got == null ? null : got.toString()));
    }
}
