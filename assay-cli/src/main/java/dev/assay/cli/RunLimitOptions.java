package dev.assay.cli;

import dev.assay.cost.Budget;
import dev.assay.model.RetryPolicy;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunSettings;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options of {@code assay run} that bound a run: cases at once and the time of each ({@code -c},
 * {@code --timeout}), answers per case ({@code --samples}), retries of a model call ({@code --retries},
 * {@code --max-retry-wait}), what it may spend ({@code --max-cost}, {@code --run-max-tokens},
 * {@code --case-max-tokens}) and which case workspaces it keeps ({@code --keep-workspaces}).
 */
final class RunLimitOptions {
    @Option(
            names = {"-c", "--concurrency"},
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Cases evaluated at once (default: " + EvalSpec.Limits.DEFAULT_CONCURRENCY + ").")
    Integer concurrency;

    @Option(
            names = "--timeout",
            paramLabel = "<seconds>",
            converter = OptionValues.PositiveSeconds.class,
            description = "Time limit per case unless the case sets timeout_s (default: "
                    + EvalSpec.Limits.DEFAULT_TIMEOUT_S + ").")
    Double timeoutSeconds;

    @Option(
            names = "--samples",
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Answers drawn per case; above 1 each is an item <case id>#<k> and reports add pass@k "
                    + "(default: 1).")
    Integer samples;

    @Option(
            names = "--max-cost",
            paramLabel = "<usd>",
            converter = OptionValues.Dollars.class,
            description = "Start no further case once the run's model calls (judges' too) cost this many US dollars; "
                    + "the cases running finish and the run ends interrupted (run.budget_exhausted). docs/cost.md.")
    Double maxCost;

    @Option(
            names = "--run-max-tokens",
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Start no further case once the run's model calls (judges' too) used this many tokens, input "
                    + "and output; as --max-cost. (--max-tokens is the output cap of one call.)")
    Integer runMaxTokens;

    @Option(
            names = "--case-max-tokens",
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Stop a case whose model calls used more than this many tokens, input and output; it is "
                    + "stored as an error item (case.token_limit_exceeded).")
    Integer caseMaxTokens;

    @Option(
            names = "--retries",
            paramLabel = "<n>",
            converter = OptionValues.NotNegative.class,
            description = "Retries of a failed model call (429, 5xx, timeouts) (default: " + RunSettings.DEFAULT_RETRIES
                    + ").")
    Integer retries;

    @Option(
            names = "--max-retry-wait",
            paramLabel = "<seconds>",
            converter = OptionValues.NotNegativeSeconds.class,
            description = "Total time one call may wait between retries (default: "
                    + RetryPolicy.DEFAULT_MAX_TOTAL_WAIT_S + ").")
    Double maxRetryWait;

    @Option(names = "--keep-workspaces", description = "Keep every case workspace (default: only failed ones).")
    boolean keepWorkspaces;

    /** Adds what these options say to the command line's settings: only the options given. */
    void addTo(RunSettings settings) {
        settings.retries(retries)
                .maxRetryWait(maxRetryWait())
                .concurrency(concurrency)
                .timeout(timeoutSeconds == null ? null : Duration.ofMillis((long) (timeoutSeconds * 1000)))
                .samples(samples)
                .keepWorkspaces(keepWorkspaces ? true : null)
                .maxCostUsd(maxCost)
                .runMaxTokens(runMaxTokens == null ? null : runMaxTokens.longValue())
                .caseMaxTokens(caseMaxTokens == null ? null : caseMaxTokens.longValue());
    }

    /** {@return how a call is retried: also an agent service's, before its stream starts, as a model call's} */
    RetryPolicy retryPolicy() {
        return RunSettings.retryPolicy(retries, maxRetryWait());
    }

    /** {@return the budget these options give, each limit null where not given} */
    Budget budget() {
        return new Budget(
                maxCost,
                runMaxTokens == null ? null : runMaxTokens.longValue(),
                caseMaxTokens == null ? null : caseMaxTokens.longValue());
    }

    private Duration maxRetryWait() {
        return maxRetryWait == null ? null : Duration.ofMillis((long) (maxRetryWait * 1000));
    }
}
