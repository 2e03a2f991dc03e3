package dev.assay.score;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Dimension weights for the total score, and the rule that turns dimension scores into a total. Only the ratios matter:
 * {@code tool=35,logic=25,common=20,complex=20} (the default, from the capability plan) and
 * {@code tool=7,logic=5,common=4,complex=4} give the same totals. A dimension present in a run but absent here (e.g.
 * {@code code}) weighs the mean of the configured weights, so it counts like an average dimension.
 *
 * @param byDimension dimension to weight, each >= 0
 * @param scoring how the total is formed; {@link Scoring#ASSAY} unless a preset says otherwise
 */
public record Weights(Map<String, Double> byDimension, Scoring scoring) {
    /** A scoring preset: its default weights and its total rule. */
    public enum Scoring {
        /** Assay's own: the total is renormalised over the dimensions the run scored; partial credit counts. */
        ASSAY,
        /**
         * The reference server's ({@code build_dimension_scores}/{@code build_total_score}; docs/checkers.md,
         * differences S1-S3, S5): weights 30/25/15/30, the total divided by the sum of every configured weight (a
         * dimension with no judged item counts 0), items are pass or fail (a partial one counts 0), and a dimension
         * whose case weights are all 0 is dropped, so its numbers can be compared with the reference's (which are
         * 0-100). Checkers see the preset too ({@code CheckContext#scoring}): {@code choice} then reads the article "a"
         * as the reference does (C9).
         */
        REFERENCE;

        /** {@return the name used on the command line, in assay.yaml, the API and the run snapshot} */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * {@return the preset with this name}
         *
         * @throws AssayException {@code config.invalid_scoring} naming the presets
         */
        public static Scoring of(String name) {
            return Arrays.stream(values())
                    .filter(scoring -> scoring.wireName().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new AssayException(Problem.of(
                                    "config.invalid_scoring", "scoring must be assay or reference, got '" + name + "'")
                            .withDetail("field", "scoring")));
        }
    }

    public Weights {
        byDimension = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byDimension));
        byDimension.forEach((dimension, weight) -> {
            if (weight == null || weight < 0 || weight.isNaN() || weight.isInfinite()) {
                throw new AssayException(Problem.of(
                                "config.invalid_weights",
                                "weight of '" + dimension + "' must be a number >= 0, got " + weight)
                        .withDetail("field", "weights"));
            }
        });
        scoring = scoring == null ? Scoring.ASSAY : scoring;
    }

    /** Weights under Assay's own total rule. */
    public Weights(Map<String, Double> byDimension) {
        this(byDimension, Scoring.ASSAY);
    }

    public static Weights defaults() {
        return preset(Scoring.ASSAY);
    }

    /** {@return the preset's default weights under its total rule} */
    public static Weights preset(Scoring scoring) {
        var weights = new LinkedHashMap<String, Double>();
        boolean reference = scoring == Scoring.REFERENCE;
        weights.put("tool", reference ? 30.0 : 35.0);
        weights.put("logic", 25.0);
        weights.put("common", reference ? 15.0 : 20.0);
        weights.put("complex", reference ? 30.0 : 20.0);
        return new Weights(weights, scoring);
    }

    /** {@return these weights with the named ones replaced; the total rule is kept} */
    public Weights with(Map<String, Double> overrides) {
        var weights = new LinkedHashMap<>(byDimension);
        weights.putAll(overrides);
        return new Weights(weights, scoring);
    }

    /**
     * Parses {@code tool=35,logic=25,...}; dimensions not named keep their default weight.
     *
     * @throws AssayException {@code config.invalid_weights} naming the bad entry
     */
    public static Weights parse(String text) {
        return parse(text, defaults());
    }

    /**
     * Parses {@code tool=35,logic=25,...} over a preset; dimensions not named keep the preset's weight.
     *
     * @throws AssayException {@code config.invalid_weights} naming the bad entry
     */
    public static Weights parse(String text, Weights base) {
        var weights = new LinkedHashMap<String, Double>();
        for (String entry : text.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            String[] parts = entry.split("=", 2);
            if (parts.length != 2 || parts[0].isBlank()) {
                throw new AssayException(
                        Problem.of("config.invalid_weights", "expected DIMENSION=NUMBER, got '" + entry.strip() + "'")
                                .withDetail("field", "weights"));
            }
            try {
                weights.put(parts[0].strip(), Double.parseDouble(parts[1].strip()));
            } catch (NumberFormatException e) {
                throw new AssayException(Problem.of(
                                "config.invalid_weights",
                                "weight of '" + parts[0].strip() + "' is not a number: '" + parts[1].strip() + "'")
                        .withDetail("field", "weights"));
            }
        }
        return base.with(weights);
    }

    /** {@return the weight of a dimension; the mean configured weight for one not configured} */
    public double of(String dimension) {
        Double configured = byDimension.get(dimension);
        if (configured != null) {
            return configured;
        }
        return byDimension.values().stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElse(1.0);
    }
}
