package dev.assay.score;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Dimension weights for the total score. Only the ratios matter: {@code tool=35,logic=25,common=20,complex=20}
 * (the default, from the capability plan) and {@code tool=7,logic=5,common=4,complex=4} give the same totals.
 * A dimension present in a run but absent here (e.g. {@code code}) weighs the mean of the configured weights, so it
 * counts like an average dimension.
 *
 * @param byDimension dimension to weight, each >= 0
 */
public record Weights(Map<String, Double> byDimension) {
    public Weights {
        byDimension = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byDimension));
        byDimension.forEach((dimension, weight) -> {
            if (weight == null || weight < 0 || weight.isNaN() || weight.isInfinite()) {
                throw new AssayException(Problem.of("config.invalid_weights",
                        "weight of '" + dimension + "' must be a number >= 0, got " + weight).withDetail("field", "weights"));
            }
        });
    }

    public static Weights defaults() {
        var weights = new LinkedHashMap<String, Double>();
        weights.put("tool", 35.0);
        weights.put("logic", 25.0);
        weights.put("common", 20.0);
        weights.put("complex", 20.0);
        return new Weights(weights);
    }

    /**
     * Parses {@code tool=35,logic=25,...}; dimensions not named keep their default weight.
     *
     * @throws AssayException {@code config.invalid_weights} naming the bad entry
     */
    public static Weights parse(String text) {
        var weights = new LinkedHashMap<>(defaults().byDimension());
        for (String entry : text.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            String[] parts = entry.split("=", 2);
            if (parts.length != 2 || parts[0].isBlank()) {
                throw new AssayException(Problem.of("config.invalid_weights",
                        "expected DIMENSION=NUMBER, got '" + entry.strip() + "'").withDetail("field", "weights"));
            }
            try {
                weights.put(parts[0].strip(), Double.parseDouble(parts[1].strip()));
            } catch (NumberFormatException e) {
                throw new AssayException(Problem.of("config.invalid_weights",
                        "weight of '" + parts[0].strip() + "' is not a number: '" + parts[1].strip() + "'")
                        .withDetail("field", "weights"));
            }
        }
        return new Weights(weights);
    }

    /** {@return the weight of a dimension; the mean configured weight for one not configured} */
    public double of(String dimension) {
        Double configured = byDimension.get(dimension);
        if (configured != null) {
            return configured;
        }
        return byDimension.values().stream().mapToDouble(Double::doubleValue).average().orElse(1.0);
    }
}
