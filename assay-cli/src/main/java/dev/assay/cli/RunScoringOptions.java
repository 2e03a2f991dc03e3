package dev.assay.cli;

import dev.assay.run.RunSettings;
import dev.assay.score.Reducer;
import dev.assay.score.Weights;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options of {@code assay run} that say how answers are judged and summed up: the weights and preset of the total
 * ({@code --weights}, {@code --scoring}), extra metrics ({@code --metric}), how the reports' intervals treat samples
 * and clusters ({@code --reducer}, {@code --cluster-by}), and where model-written code and commands may run
 * ({@code --allow-unsandboxed-code}, {@code --allow-unsandboxed-commands}, {@code --sandbox}).
 */
final class RunScoringOptions {
    @Option(
            names = "--cluster-by",
            paramLabel = "<field>",
            description = "Cluster the reports' standard errors and 95%% intervals by this case field (dimension, "
                    + "language, a field of the case file, or a FIELD:VALUE tag); stored with the run.")
    String clusterBy;

    @Option(
            names = "--reducer",
            paramLabel = "<name>",
            converter = OptionValues.ReducerName.class,
            description = "Count each case once in the reports' intervals, its samples reduced by mean, majority, "
                    + "max, pass_at_k or pass_hat_k (k = --samples); stored with the run.")
    Reducer reducer;

    @Option(
            names = "--weights",
            paramLabel = "<dim=w,...>",
            description = "Dimension weights for the total (default: tool=35,logic=25,common=20,complex=20).")
    String weights;

    @Option(
            names = "--scoring",
            paramLabel = "<preset>",
            description = "assay (default) or reference: the reference server's weights (tool=30,logic=25,common=15,"
                    + "complex=30), pass/fail items, a total over every dimension and its reading of a choice answer; "
                    + "--weights still override.")
    String scoring;

    @Option(
            names = "--metric",
            paramLabel = "<name>",
            description = "An extra metric by name (a plug-in's), computed over the run's items when it ends and shown"
                    + " under metrics in the reports; repeatable.")
    List<String> metrics = new ArrayList<>();

    @Option(
            names = "--allow-unsandboxed-code",
            description =
                    "Let the code checker run model-written code without "
                            + "bubblewrap when it is missing (the code then runs on this machine with your rights; recorded in the run).")
    boolean allowUnsandboxedCode;

    @Option(
            names = "--allow-unsandboxed-commands",
            description = "Offer execute_command even when bubblewrap is "
                    + "missing: the model's commands then run on this machine with your rights, and can read what you can, "
                    + "API keys in this process's environment included (recorded in the run). Without it such cases are "
                    + "skipped.")
    boolean allowUnsandboxedCommands;

    @Option(
            names = "--sandbox",
            paramLabel = "ENGINE",
            description =
                    "The container engine for cases that name an image (\"sandbox\": {\"image\": ...}): docker or "
                            + "podman, reached over its socket (DOCKER_HOST, or the engine's usual one). Default: the first that "
                            + "answers. See docs/sandboxes.md.")
    String sandbox;

    /** Adds what these options say to the command line's settings: only the options given. */
    void addTo(RunSettings settings) {
        settings.allowUnsandboxedCommands(allowUnsandboxedCommands ? true : null)
                .sandbox(sandbox)
                .allowUnsandboxedCode(allowUnsandboxedCode ? true : null)
                .scoring(scoring == null ? null : Weights.Scoring.of(scoring))
                .weights(
                        weights == null
                                ? null
                                : Weights.parse(weights, new Weights(Map.of())).byDimension())
                .clusterBy(clusterBy)
                .reducer(reducer)
                .metrics(metrics.isEmpty() ? null : metrics);
    }
}
