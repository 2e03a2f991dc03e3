package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.dialog.internal.PythonJson;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The content of {@code metrics_summary.json} (docs/dialog-metrics.md §1.4).
 *
 * @param runId the run's id
 * @param traceVersion always {@code v1}
 * @param datasetPath the dataset as the run named it
 * @param metrics {@code m1_context_continuity} … {@code m5_explainability}, in that order
 * @param counters dialog counts
 */
public record EvalSummary(
        String runId, String traceVersion, String datasetPath, Map<String, MetricResult> metrics, Counters counters) {
    public EvalSummary {
        runId = Objects.requireNonNullElse(runId, "");
        traceVersion = Objects.requireNonNullElse(traceVersion, DialogTrace.VERSION);
        datasetPath = Objects.requireNonNullElse(datasetPath, "");
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        Objects.requireNonNull(counters, "counters");
    }

    /** {@return the metric with that name} */
    public MetricResult metric(String name) {
        return metrics.get(name);
    }

    /** {@return the JSON object in the reference's key order} */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("run_id", runId);
        node.put("trace_version", traceVersion);
        node.put("dataset_path", datasetPath);
        ObjectNode metricNode = node.putObject("metrics");
        metrics.forEach((name, metric) -> metricNode.set(name, metric.toJson()));
        node.set("counters", counters.toJson());
        return node;
    }

    /** {@return the file content: indent 2, non-ASCII unescaped, no trailing newline, as the reference writes it} */
    public String toFileText() {
        return PythonJson.indented(toJson());
    }

    /** {@return a summary read from its JSON} */
    public static EvalSummary fromJson(JsonNode node) {
        var metrics = new LinkedHashMap<String, MetricResult>();
        node.path("metrics").properties().forEach(e -> metrics.put(e.getKey(), MetricResult.fromJson(e.getValue())));
        return new EvalSummary(
                node.path("run_id").asText(""),
                node.path("trace_version").asText(DialogTrace.VERSION),
                node.path("dataset_path").asText(""),
                metrics,
                Counters.fromJson(node.path("counters")));
    }
}
