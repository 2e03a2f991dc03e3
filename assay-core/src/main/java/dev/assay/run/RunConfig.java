package dev.assay.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.assay.score.Weights;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How to run: the engine's settings, built and validated once at the edge (CLI flags, an HTTP body).
 *
 * @param runId the run id to use, one path segment of letters, digits, {@code .}, {@code _} and {@code -} (it names the
 *     run's workspace directory); null to generate one (32 hex characters)
 * @param userId who runs it; empty when not given
 * @param language the language selected (for the record); empty for all
 * @param concurrency cases at once, >= 1 (the target's own limit also applies)
 * @param defaultTimeout per-case time limit unless the case sets {@code timeout_s}
 * @param weights dimension weights for the total
 * @param workspaceRoot where run workspaces are created ({@code <root>/<run id>/<case id>})
 * @param workspacePolicy which workspaces to keep afterwards
 * @param snapshot the configuration snapshot stored with the run; must hold no secrets
 * @param samples answers drawn per case, >= 1 (default 1); with more than one, each sample is its own item {@code <case
 *     id>#<k>} and reports add pass@k
 */
public record RunConfig(
        String runId,
        String userId,
        String language,
        int concurrency,
        Duration defaultTimeout,
        Weights weights,
        Path workspaceRoot,
        WorkspacePolicy workspacePolicy,
        JsonNode snapshot,
        int samples) {
    /** The run id names a directory under the workspace root, so it may not climb out of it. */
    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");

    public RunConfig {
        if (runId != null && !isValidRunId(runId)) {
            throw new IllegalArgumentException("run id must be one path segment of letters, digits, '.', '_' and "
                    + "'-', not starting with '.': " + runId);
        }
        userId = userId == null ? "" : userId;
        language = language == null ? "" : language;
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be >= 1");
        }
        Objects.requireNonNull(defaultTimeout, "defaultTimeout");
        weights = weights == null ? Weights.defaults() : weights;
        Objects.requireNonNull(workspaceRoot, "workspaceRoot");
        workspacePolicy = workspacePolicy == null ? WorkspacePolicy.KEEP_ON_FAILURE : workspacePolicy;
        snapshot = snapshot == null ? NullNode.getInstance() : snapshot;
        if (samples < 1) {
            throw new IllegalArgumentException("samples must be >= 1");
        }
    }

    /** One sample per case. */
    public RunConfig(
            String runId,
            String userId,
            String language,
            int concurrency,
            Duration defaultTimeout,
            Weights weights,
            Path workspaceRoot,
            WorkspacePolicy workspacePolicy,
            JsonNode snapshot) {
        this(
                runId,
                userId,
                language,
                concurrency,
                defaultTimeout,
                weights,
                workspaceRoot,
                workspacePolicy,
                snapshot,
                1);
    }

    /**
     * {@return whether {@code runId} can be a run id: one path segment of letters, digits, '.', '_' and '-', not
     * starting with '.', at most 128 characters} Run ids name workspace and run directories, so they may not climb out.
     */
    public static boolean isValidRunId(String runId) {
        return RUN_ID.matcher(runId).matches();
    }

    /** Defaults: 4 cases at once, 120 s per case, default weights, keep workspaces of failures. */
    public static RunConfig defaults(Path workspaceRoot) {
        return new RunConfig(
                null,
                "",
                "",
                4,
                Duration.ofSeconds(120),
                Weights.defaults(),
                workspaceRoot,
                WorkspacePolicy.KEEP_ON_FAILURE,
                null);
    }

    public RunConfig withRunId(String newRunId) {
        return new RunConfig(
                newRunId,
                userId,
                language,
                concurrency,
                defaultTimeout,
                weights,
                workspaceRoot,
                workspacePolicy,
                snapshot,
                samples);
    }

    public RunConfig withConcurrency(int newConcurrency) {
        return new RunConfig(
                runId,
                userId,
                language,
                newConcurrency,
                defaultTimeout,
                weights,
                workspaceRoot,
                workspacePolicy,
                snapshot,
                samples);
    }

    public RunConfig withDefaultTimeout(Duration newTimeout) {
        return new RunConfig(
                runId,
                userId,
                language,
                concurrency,
                newTimeout,
                weights,
                workspaceRoot,
                workspacePolicy,
                snapshot,
                samples);
    }

    public RunConfig withSnapshot(JsonNode newSnapshot) {
        return new RunConfig(
                runId,
                userId,
                language,
                concurrency,
                defaultTimeout,
                weights,
                workspaceRoot,
                workspacePolicy,
                newSnapshot,
                samples);
    }

    public RunConfig withSamples(int newSamples) {
        return new RunConfig(
                runId,
                userId,
                language,
                concurrency,
                defaultTimeout,
                weights,
                workspaceRoot,
                workspacePolicy,
                snapshot,
                newSamples);
    }

    /** {@return the items a run of {@code cases} cases has: one per case and sample} */
    public int itemCount(int cases) {
        return cases * samples;
    }
}
