package dev.assay.cli;

import dev.assay.run.MetricsProfile;
import dev.assay.run.ScoreOptions;
import picocli.CommandLine.Option;

/** The metric options of {@code dialog score} and {@code dialog run}. */
final class DialogScoringOptions {
    @Option(
            names = "--metrics-profile",
            paramLabel = "NAME",
            defaultValue = "memfin-v1",
            description =
                    "Metric rules: memfin-v1 (reference, bugs included) or memfin-v1-corrected; default ${DEFAULT-VALUE}.")
    String profile;

    @Option(
            names = "--blank-memory-keys",
            description =
                    "Memory-less baseline: ignore every memory_required_keys_gt, so M1 reports 0.0 with no eligible turn (recorded in the manifest).")
    boolean blankMemoryKeys;

    ScoreOptions toOptions() {
        return new ScoreOptions(MetricsProfile.parse(profile), blankMemoryKeys);
    }
}
