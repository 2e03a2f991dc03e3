package dev.assay.dialog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.dialog.internal.ReferenceTables;
import java.time.Instant;
import java.util.Objects;

/**
 * The content of {@code run_manifest.json}: the reference's fields (docs/dialog-metrics.md §1.4) plus what makes a run
 * reproducible ({@code target}, {@code metrics_profile}, {@code m1_handling}, {@code config_fingerprint}).
 *
 * @param config the run's settings
 * @param subject the target's name, e.g. {@code chat:gpt-4o-mini}
 * @param startedAt when the run (or its first attempt, when resumed) started
 * @param endedAt when it ended
 * @param resumedDialogs dialogs taken from an earlier attempt of the same run id
 * @param counters dialog counts
 * @param configFingerprint {@link DialogRunConfig#fingerprint(String)}
 * @param judge the LLM judge of {@value ExplainabilityJudge#METRIC} ({@link ExplainabilityJudge#describe()}); null when
 *     none was asked, and then the manifest has no {@code judge} key
 */
public record RunManifest(
        DialogRunConfig config,
        String subject,
        Instant startedAt,
        Instant endedAt,
        int resumedDialogs,
        Counters counters,
        String configFingerprint,
        ObjectNode judge) {
    public static final String FILE = "run_manifest.json";

    public RunManifest {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(counters, "counters");
        judge = judge == null ? null : judge.deepCopy();
    }

    /** {@return the manifest JSON, keys in the reference's order followed by Assay's} */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("trace_version", DialogTrace.VERSION);
        node.put("run_id", config.runId());
        node.put("dataset_path", config.datasetPath());
        node.put("started_at", startedAt.toString());
        node.put("ended_at", endedAt.toString());
        node.put("model_name", config.modelName());
        node.put("workers_dialog", config.workersDialog());
        // No LLM judge runs in the default metrics (docs/dialog-metrics.md §3, item 1): one nominal judge worker.
        node.put(
                "workers_judge", judge == null ? 1 : judge.path("workers_judge").asInt(1));
        node.put("turn_timeout_sec", config.turnTimeout().toMillis() / 1000.0);
        node.put("turn_retries", config.turnRetries());
        node.set("counters", counters.toJson());
        node.put("target", subject);
        node.put("prompt_version", config.promptVersion());
        node.put("metrics_profile", config.score().profile().wireName());
        node.put("m1_handling", config.m1Handling());
        node.set(
                "field_mapping",
                config.fieldMapping() == null ? null : config.fieldMapping().toJson());
        node.put("resumed_dialogs", resumedDialogs);
        node.put("tables_hash", ReferenceTables.hash());
        node.put("config_fingerprint", configFingerprint);
        node.putObject("metric_errors");
        if (judge != null) {
            node.set("judge", judge.deepCopy());
        }
        return node;
    }
}
