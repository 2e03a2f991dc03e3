package dev.assay.api;

import dev.assay.Problem;
import dev.assay.result.RunStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scores an evaluation must reach: a minimum total, minimum dimension scores, or both. A run that did not finish,
 * or whose judged cases all ended in error, meets no threshold: it measured nothing. Immutable.
 *
 * <pre>{@code
 * Threshold.total(0.8).dimension("tool_use", 0.7).check(evaluation)   // [] when met
 * }</pre>
 *
 * @param total the minimum weighted total in [0, 1]; null for none. A minimum above 1 can never be met
 * @param dimensions dimension to its minimum score; a dimension without a scored case misses its minimum
 */
public record Threshold(Double total, Map<String, Double> dimensions) {
    public Threshold {
        if (total != null) {
            requireMinimum("total", total);
        }
        dimensions.forEach(Threshold::requireMinimum);
        dimensions = Collections.unmodifiableMap(new LinkedHashMap<>(dimensions));
    }

    /** {@return a threshold on the weighted total} */
    public static Threshold total(double minimum) {
        return new Threshold(minimum, Map.of());
    }

    /** {@return a threshold on nothing but the run having finished; add minimums with {@link #dimension}} */
    public static Threshold finished() {
        return new Threshold(null, Map.of());
    }

    /** {@return this threshold, and this minimum score for one dimension} */
    public Threshold dimension(String dimension, double minimum) {
        var more = new LinkedHashMap<>(dimensions);
        more.put(dimension, minimum);
        return new Threshold(total, more);
    }

    /** Why an evaluation misses a threshold. */
    public sealed interface Failure {
        /** {@return the failure in one line} */
        String message();

        /**
         * The run did not end on its own.
         *
         * @param status failed, cancelled or interrupted
         * @param error why; null when the run was cancelled
         */
        record RunNotFinished(RunStatus status, Problem error) implements Failure {
            @Override
            public String message() {
                return "the run ended " + status.wireName()
                        + (error == null ? "" : ": " + error.type() + ": " + error.message());
            }
        }

        /**
         * Every judged case ended in error (a model that cannot be reached, a broken tool): nothing was measured.
         *
         * @param errors how many cases ended in error
         */
        record NothingMeasured(int errors) implements Failure {
            @Override
            public String message() {
                return "every judged case is an error (" + errors + "); nothing was measured";
            }
        }

        /**
         * A score is below its minimum.
         *
         * @param scope {@code total}, or the dimension's name
         * @param minimum the threshold's minimum
         * @param actual the score reached; null when nothing in scope was scored
         */
        record Below(String scope, double minimum, Double actual) implements Failure {
            @Override
            public String message() {
                return scope + " " + (actual == null ? "has no score" : score(actual)) + " < " + score(minimum);
            }
        }
    }

    /** {@return every way the evaluation misses this threshold; empty when it meets it} */
    public List<Failure> check(Evaluation evaluation) {
        var failures = new ArrayList<Failure>();
        if (evaluation.status() != RunStatus.FINISHED) {
            failures.add(new Failure.RunNotFinished(evaluation.status(), evaluation.error()));
        }
        if (evaluation.counts().everyJudgedItemIsAnError()) {
            failures.add(new Failure.NothingMeasured(evaluation.counts().error()));
        }
        if (total != null && below(evaluation.totalScore(), total)) {
            failures.add(new Failure.Below("total", total, evaluation.totalScore()));
        }
        dimensions.forEach((dimension, minimum) -> {
            Double actual = evaluation.dimensionScores().get(dimension);
            if (below(actual, minimum)) {
                failures.add(new Failure.Below(dimension, minimum, actual));
            }
        });
        return List.copyOf(failures);
    }

    /** {@return the threshold in one line: "total ≥ 0.8000, tool_use ≥ 0.7000"} */
    public String describe() {
        var parts = new ArrayList<String>();
        if (total != null) {
            parts.add("total ≥ " + score(total));
        }
        dimensions.forEach((dimension, minimum) -> parts.add(dimension + " ≥ " + score(minimum)));
        return parts.isEmpty() ? "a finished run" : String.join(", ", parts);
    }

    /** Locale.ROOT: a threshold reads the same on every machine ("0.8000", never "0,8000"). */
    private static String score(double value) {
        return String.format(Locale.ROOT, "%.4f", value);
    }

    private static boolean below(Double actual, double minimum) {
        return actual == null || actual < minimum;
    }

    private static void requireMinimum(String scope, Double minimum) {
        if (minimum == null || !Double.isFinite(minimum) || minimum < 0) {
            throw new IllegalArgumentException("the minimum of " + scope + " must be a number >= 0, got " + minimum);
        }
    }
}
