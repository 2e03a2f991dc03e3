package dev.assay.cli;

import dev.assay.Json;
import dev.assay.check.CheckerRegistry;
import dev.assay.run.CostEstimate;
import dev.assay.run.EvalSpec;
import dev.assay.store.Store;
import java.io.PrintWriter;
import java.util.Locale;

/** {@code assay run --dry-run}: the run's expected cost by role, from the store's past runs or the prompts. */
final class DryRun {
    private DryRun() {}

    /**
     * Prints the estimate of a run, calling nothing; {@return the exit code}
     *
     * @param format the summary's format, table or json
     */
    static int estimate(
            EvalSpec evalSpec, CheckerRegistry checkers, DatabaseOption database, String format, PrintWriter stdout) {
        CostEstimate estimate;
        try (Store store = database.open()) {
            estimate = CostEstimate.of(evalSpec, checkers, store);
        }
        if (format.equals("json")) {
            stdout.println(Json.write(estimate.toJson()));
        } else {
            stdout.printf(
                    Locale.ROOT,
                    "Dry run of %s: %d items; nothing was called.%n",
                    TerminalText.line(estimate.suite()),
                    estimate.items());
            for (CostEstimate.Line line : estimate.lines()) {
                stdout.printf(
                        Locale.ROOT,
                        "  %-8s %-28s ~%d input tokens, ~%d output tokens, %s%n",
                        line.role(),
                        TerminalText.line(line.model()),
                        line.inputTokens(),
                        line.outputTokens(),
                        line.costUsd() == null
                                ? "no price (assay.yaml prices)"
                                : "~%.6f USD".formatted(line.costUsd()));
            }
            stdout.println(
                    estimate.pastItems() > 0
                            ? "From the mean of " + estimate.pastItems() + " items of " + estimate.pastRuns()
                                    + " past run(s) of this suite by this model."
                            : "From the prompts (" + CostEstimate.CHARACTERS_PER_TOKEN
                                    + " characters a token) and " + CostEstimate.ASSUMED_OUTPUT_TOKENS
                                    + " output tokens an item: no past run of this suite by this model.");
            stdout.printf(Locale.ROOT, "Estimated cost: ~%.6f USD%n", estimate.totalUsd());
        }
        stdout.flush();
        return ExitCodes.OK;
    }
}
