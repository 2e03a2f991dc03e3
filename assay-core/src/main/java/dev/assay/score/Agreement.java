package dev.assay.score;

import dev.assay.score.internal.Normal;

/**
 * How often a judge and people agree on pass or fail, from the 2×2 confusion matrix of their verdicts on the same
 * checks: accuracy (the share of agreements) with its 95 % Wilson score interval, and Cohen's kappa (agreement beyond
 * what the two rates alone would give by chance) with a 95 % interval from Cohen's (1960) large-sample standard error,
 * {@code sqrt(po (1 - po) / (n (1 - pe)^2))}, clipped to [-1, 1] (docs/judge.md, "Calibration").
 *
 * @param judgePassHumanPass checks both passed
 * @param judgePassHumanFail checks the judge passed and people failed
 * @param judgeFailHumanPass checks the judge failed and people passed
 * @param judgeFailHumanFail checks both failed
 */
public record Agreement(
        int judgePassHumanPass, int judgePassHumanFail, int judgeFailHumanPass, int judgeFailHumanFail) {
    /** The two-sided 95 % normal quantile. */
    private static final double Z = Normal.quantile(0.975);

    public Agreement {
        if (judgePassHumanPass < 0 || judgePassHumanFail < 0 || judgeFailHumanPass < 0 || judgeFailHumanFail < 0) {
            throw new IllegalArgumentException("counts must be >= 0");
        }
    }

    /** {@return this matrix with one more pair of verdicts} */
    public Agreement plus(boolean judgePassed, boolean humanPassed) {
        return new Agreement(
                judgePassHumanPass + (judgePassed && humanPassed ? 1 : 0),
                judgePassHumanFail + (judgePassed && !humanPassed ? 1 : 0),
                judgeFailHumanPass + (!judgePassed && humanPassed ? 1 : 0),
                judgeFailHumanFail + (!judgePassed && !humanPassed ? 1 : 0));
    }

    /** {@return the pairs of verdicts counted} */
    public int n() {
        return judgePassHumanPass + judgePassHumanFail + judgeFailHumanPass + judgeFailHumanFail;
    }

    /** {@return the share of checks where the judge and people agree; NaN without any} */
    public double accuracy() {
        return n() == 0 ? Double.NaN : (double) (judgePassHumanPass + judgeFailHumanFail) / n();
    }

    /** {@return the 95 % Wilson score interval of {@link #accuracy()}, {lower, upper}; NaNs without any pair} */
    public double[] accuracyInterval() {
        int n = n();
        if (n == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double p = accuracy();
        double z2 = Z * Z;
        double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
        double half = Z / (1 + z2 / n) * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
        return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
    }

    /** {@return the agreement the judge's and people's pass rates would give by chance} */
    double chanceAgreement() {
        double n = n();
        double judgePass = (judgePassHumanPass + judgePassHumanFail) / n;
        double humanPass = (judgePassHumanPass + judgeFailHumanPass) / n;
        return judgePass * humanPass + (1 - judgePass) * (1 - humanPass);
    }

    /**
     * {@return Cohen's kappa, {@code (po - pe) / (1 - pe)}; NaN without any pair or when chance alone agrees always
     * (both gave one verdict only)}
     */
    public double kappa() {
        if (n() == 0) {
            return Double.NaN;
        }
        double chance = chanceAgreement();
        return chance >= 1 ? Double.NaN : (accuracy() - chance) / (1 - chance);
    }

    /** {@return Cohen's large-sample standard error of {@link #kappa()}; NaN where kappa is} */
    public double kappaStandardError() {
        double kappa = kappa();
        if (Double.isNaN(kappa)) {
            return Double.NaN;
        }
        double po = accuracy();
        double chance = chanceAgreement();
        return Math.sqrt(po * (1 - po) / (n() * (1 - chance) * (1 - chance)));
    }

    /** {@return the 95 % interval of {@link #kappa()}, kappa ± 1.96 SE clipped to [-1, 1]; NaNs where kappa is} */
    public double[] kappaInterval() {
        double kappa = kappa();
        double se = kappaStandardError();
        return Double.isNaN(kappa)
                ? new double[] {Double.NaN, Double.NaN}
                : new double[] {Math.max(-1, kappa - Z * se), Math.min(1, kappa + Z * se)};
    }
}
