package dev.assay.run;

import dev.assay.score.Weights;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the engine runs one run: its spec, under which id, and where its workspaces go. Everything the run is set to do
 * is read from the spec; the accessors below are the engine's names for its parts.
 *
 * @param runId the run id to use, one path segment of letters, digits, {@code .}, {@code _} and {@code -} (it names the
 *     run's workspace directory); null to generate one (32 hex characters)
 * @param workspaceRoot where run workspaces are created ({@code <root>/<run id>/<case id>})
 * @param spec the run's description, stored with it as its configuration snapshot
 */
public record RunConfig(String runId, Path workspaceRoot, EvalSpec spec) {
    /** The run id names a directory under the workspace root, so it may not climb out of it. */
    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");

    public RunConfig {
        if (runId != null && !isValidRunId(runId)) {
            throw new IllegalArgumentException("run id must be one path segment of letters, digits, '.', '_' and "
                    + "'-', not starting with '.': " + runId);
        }
        Objects.requireNonNull(workspaceRoot, "workspaceRoot");
        Objects.requireNonNull(spec, "spec");
    }

    /**
     * {@return whether {@code runId} can be a run id: one path segment of letters, digits, '.', '_' and '-', not
     * starting with '.', at most 128 characters} Run ids name workspace and run directories, so they may not climb out.
     */
    public static boolean isValidRunId(String runId) {
        return RUN_ID.matcher(runId).matches();
    }

    public RunConfig withRunId(String newRunId) {
        return new RunConfig(newRunId, workspaceRoot, spec);
    }

    /** {@return who runs it; empty when not given} */
    public String userId() {
        return spec.userId();
    }

    /** {@return the language selected (for the record); empty for all} */
    public String language() {
        return Objects.requireNonNullElse(spec.dataset().selection().language(), "");
    }

    /** {@return cases at once, >= 1 (the system under test's own limit also applies)} */
    public int concurrency() {
        return spec.limits().concurrency();
    }

    /** {@return the per-case time limit unless the case sets {@code timeout_s}} */
    public Duration defaultTimeout() {
        return spec.limits().timeout();
    }

    /** {@return the dimension weights for the total} */
    public Weights weights() {
        return spec.scoring().weights();
    }

    /** {@return which workspaces to keep afterwards} */
    public WorkspacePolicy workspacePolicy() {
        return spec.limits().workspacePolicy();
    }

    /**
     * {@return answers drawn per case, >= 1}: with more than one, each sample is its own item {@code <case id>#<k>} and
     * reports add pass@k
     */
    public int samples() {
        return spec.limits().samples();
    }

    /** {@return the items a run of {@code cases} cases has: one per case, system under test and sample} */
    public int itemCount(int cases) {
        return spec.itemCount(cases);
    }
}
