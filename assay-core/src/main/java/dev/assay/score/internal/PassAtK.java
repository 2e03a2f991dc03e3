package dev.assay.score.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The unbiased pass@k estimator (Chen et al. 2021): for a question with n samples of which c are correct, {@code 1 -
 * C(n-c, k) / C(n, k)}, computed as a product to stay stable for large n; and pass^k (τ-bench), the chance that k
 * samples drawn without replacement ALL pass, {@code C(c, k) / C(n, k)}: a measure of reliability rather than of reach.
 */
public final class PassAtK {
    private PassAtK() {}

    /**
     * {@return pass@k of one question}
     *
     * @param samples how many samples were drawn (n); at least k
     * @param correct how many of them passed (c)
     * @param k the k of pass@k; at least 1
     */
    public static double of(int samples, int correct, int k) {
        check(samples, correct, k);
        if (samples - correct < k) {
            return 1.0;
        }
        double allFail = 1.0;
        for (int i = samples - correct + 1; i <= samples; i++) {
            allFail *= 1.0 - (double) k / i;
        }
        return 1.0 - allFail;
    }

    /**
     * {@return pass^k of one question: {@code C(c, k) / C(n, k)}, as a product}
     *
     * @param samples how many samples were drawn (n); at least k
     * @param correct how many of them passed (c)
     * @param k the k of pass^k; at least 1
     */
    public static double hat(int samples, int correct, int k) {
        check(samples, correct, k);
        double all = 1.0;
        for (int i = 0; i < k; i++) {
            all *= (double) (correct - i) / (samples - i);
        }
        return Math.max(0, all);
    }

    private static void check(int samples, int correct, int k) {
        if (k < 1 || samples < k || correct < 0 || correct > samples) {
            throw new IllegalArgumentException(
                    "need 1 <= k <= n and 0 <= c <= n, got n=" + samples + " c=" + correct + " k=" + k);
        }
    }

    /**
     * {@return the mean pass@k over questions, each given as {@code {n, c}}}
     *
     * @throws IllegalArgumentException when a question has fewer than k samples (pass@k is then not reported)
     */
    public static double mean(List<int[]> questions, int k) {
        if (questions.isEmpty()) {
            throw new IllegalArgumentException("no questions");
        }
        return questions.stream().mapToDouble(q -> of(q[0], q[1], k)).average().orElseThrow();
    }

    /**
     * {@return pass@k for k = 1..maxK, each the mean over the questions that have at least k samples}; a k that no
     * question reaches is left out
     *
     * @param questions each question as {@code {n, c}}
     */
    public static Map<Integer, Double> upTo(List<int[]> questions, int maxK) {
        return upTo(questions, maxK, PassAtK::of);
    }

    /**
     * {@return pass^k for k = 1..maxK, each the mean over the questions that have at least k samples}; a k that no
     * question reaches is left out
     *
     * @param questions each question as {@code {n, c}}
     */
    public static Map<Integer, Double> hatUpTo(List<int[]> questions, int maxK) {
        return upTo(questions, maxK, PassAtK::hat);
    }

    /** One question's rate from its n, c and k. */
    private interface Estimator {
        double rate(int samples, int correct, int k);
    }

    private static Map<Integer, Double> upTo(List<int[]> questions, int maxK, Estimator estimator) {
        var rates = new LinkedHashMap<Integer, Double>();
        for (int k = 1; k <= maxK; k++) {
            int size = k;
            var eligible = questions.stream().filter(q -> q[0] >= size).toList();
            if (!eligible.isEmpty()) {
                rates.put(
                        k,
                        eligible.stream()
                                .mapToDouble(q -> estimator.rate(q[0], q[1], size))
                                .average()
                                .orElseThrow());
            }
        }
        return rates;
    }
}
