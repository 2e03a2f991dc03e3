package dev.assay.dialog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.dialog.internal.PythonJson;
import dev.assay.dialog.internal.ReferenceTables;
import dev.assay.run.FieldMapping;
import dev.assay.run.ScoreOptions;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings of a dialog run, recorded in its manifest.
 *
 * @param runId the run's id; re-using an id resumes that run directory
 * @param datasetPath the dataset as the user named it
 * @param modelName the model or agent as the user named it
 * @param promptVersion a label (or hash) of the system prompt; empty when none
 * @param workersDialog dialogs replayed in parallel, at least 1; turns within a dialog are always sequential
 * @param turnTimeout the limit for one call of one turn; a turn that exceeds it is an error ({@code turn_timeout:
 *     exceeded Ns}); default {@value dev.assay.run.EvalSpec.Limits#DEFAULT_TIMEOUT_S} s
 * @param turnRetries extra attempts after a failed or timed-out call, at least 0; default 1
 * @param score metrics profile and the memory-blanking baseline option
 * @param fieldMapping how agent reports map into the trace; null for chat models
 */
public record DialogRunConfig(
        String runId,
        String datasetPath,
        String modelName,
        String promptVersion,
        int workersDialog,
        Duration turnTimeout,
        int turnRetries,
        ScoreOptions score,
        FieldMapping fieldMapping) {

    /**
     * {@return the prompt version recorded for a system prompt given without a label: {@code sha256:<hex>} of its text,
     * or empty for no prompt}
     */
    public static String promptVersion(String systemPrompt) {
        return systemPrompt == null || systemPrompt.isEmpty() ? "" : "sha256:" + ReferenceTables.sha256(systemPrompt);
    }

    public DialogRunConfig {
        Objects.requireNonNull(runId, "runId");
        if (!dev.assay.run.RunConfig.isValidRunId(runId)) {
            // The run id names the run directory; like a capability run's, it may not climb out of its parent.
            throw new dev.assay.AssayException(dev.assay.Problem.of(
                            "config.invalid_run_id",
                            "a run id is one path segment of letters, digits, '.', '_' and '-', not starting with '.': "
                                    + runId)
                    .withDetail("field", "run_id"));
        }
        datasetPath = Objects.requireNonNullElse(datasetPath, "");
        modelName = Objects.requireNonNullElse(modelName, "");
        promptVersion = Objects.requireNonNullElse(promptVersion, "");
        if (workersDialog < 1) {
            throw new IllegalArgumentException("workersDialog must be at least 1, got " + workersDialog);
        }
        turnTimeout = Objects.requireNonNullElse(turnTimeout, dev.assay.run.EvalSpec.Limits.DEFAULT_TIMEOUT);
        if (turnTimeout.isNegative() || turnTimeout.isZero()) {
            throw new IllegalArgumentException("turnTimeout must be positive, got " + turnTimeout);
        }
        if (turnRetries < 0) {
            throw new IllegalArgumentException("turnRetries must be at least 0, got " + turnRetries);
        }
        score = Objects.requireNonNullElse(score, ScoreOptions.defaults());
    }

    /** {@return the manifest's {@code m1_handling}: null normally, the reference's label for blanked keys} */
    public String m1Handling() {
        return score.blankMemoryKeys() ? "ignored_memory_required_keys" : null;
    }

    /**
     * {@return SHA-256 over what decides the numbers: target, model, prompt version, metrics profile, M1 handling,
     * field mapping and the keyword/mapping tables' hash (contract §10)}
     *
     * @param subjectName the target's {@link DialogSubject#name()}
     */
    public String fingerprint(String subjectName) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("target", subjectName);
        node.put("model_name", modelName);
        node.put("prompt_version", promptVersion);
        node.put("metrics_profile", score.profile().wireName());
        node.put("m1_handling", m1Handling());
        node.set("field_mapping", fieldMapping == null ? null : fieldMapping.toJson());
        node.put("tables_hash", ReferenceTables.hash());
        return ReferenceTables.sha256(PythonJson.line(node));
    }
}
