package dev.assay.score;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.assay.score.internal.PassAtK;
import java.util.List;
import java.util.Locale;

/**
 * How a case's samples (with {@code --samples n}) make the case's score. Without a reducer every sample counts as an
 * item of its own, which is what Assay has always done; with one, each case counts once with the reduced score.
 */
public enum Reducer {
    /** The mean of the samples' scores. */
    MEAN,
    /** 1 when more than half of the samples passed (majority vote on the verdict), else 0. */
    MAJORITY,
    /** The best sample's score. */
    MAX,
    /** The unbiased pass@k of the case's samples ({@link PassAtK#of}). */
    PASS_AT_K,
    /** pass^k of the case's samples: the chance that k samples all pass ({@link PassAtK#hat}). */
    PASS_HAT_K;

    /** {@return the name as written on the command line and in JSON: {@code mean}, {@code pass_at_k}...} */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@return the reducer of this name}, or throws IllegalArgumentException naming the known ones */
    @JsonCreator
    public static Reducer of(String name) {
        for (Reducer reducer : values()) {
            if (reducer.wireName().equals(name)) {
                return reducer;
            }
        }
        throw new IllegalArgumentException(
                "unknown reducer " + name + "; one of mean, majority, max, pass_at_k, pass_hat_k");
    }

    /**
     * {@return the case's score}
     *
     * @param scores the scored samples' scores, in [0, 1]; at least one
     * @param passed how many of them passed
     * @param k the k of pass@k and pass^k, at most the number of samples (else the number of samples is used)
     */
    public double reduce(List<Double> scores, int passed, int k) {
        int n = scores.size();
        if (n == 0) {
            throw new IllegalArgumentException("no samples");
        }
        return switch (this) {
            case MEAN ->
                scores.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            case MAJORITY -> 2 * passed > n ? 1.0 : 0.0;
            case MAX -> scores.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            case PASS_AT_K -> PassAtK.of(n, passed, Math.min(k, n));
            case PASS_HAT_K -> PassAtK.hat(n, passed, Math.min(k, n));
        };
    }
}
