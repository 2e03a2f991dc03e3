package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One metric's values (contract §6, docs/dialog-metrics.md §2.7), keys in the order written.
 *
 * @param metricName e.g. {@code m1_context_continuity}
 * @param micro values pooled over eligible turns (dialogs for M2)
 * @param macro unweighted means of the by-dialog values (M2: a copy of micro)
 * @param counts {@code eligible_count}, {@code skipped_count}, {@code failed_count} and the metric's totals
 * @param byDialog per dialog with eligible data, in dataset order: that dialog's values
 */
public record MetricResult(
        String metricName,
        Map<String, Double> micro,
        Map<String, Double> macro,
        Map<String, Integer> counts,
        Map<String, Map<String, Double>> byDialog) {
    public MetricResult {
        Objects.requireNonNull(metricName, "metricName");
        micro = ordered(micro);
        macro = ordered(macro);
        counts = ordered(counts);
        var dialogs = new LinkedHashMap<String, Map<String, Double>>();
        byDialog.forEach((id, values) -> dialogs.put(id, ordered(values)));
        byDialog = Collections.unmodifiableMap(dialogs);
    }

    /** {@return the JSON object as written in {@code metrics_summary.json}} */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("metric_name", metricName);
        node.set("micro", doubles(micro));
        node.set("macro", doubles(macro));
        ObjectNode countNode = node.putObject("counts");
        counts.forEach(countNode::put);
        ObjectNode dialogs = node.putObject("by_dialog");
        byDialog.forEach((id, values) -> dialogs.set(id, doubles(values)));
        return node;
    }

    /** {@return the metric read from summary JSON (for comparisons and re-reporting)} */
    public static MetricResult fromJson(JsonNode node) {
        var micro = new LinkedHashMap<String, Double>();
        node.path("micro")
                .properties()
                .forEach(e -> micro.put(e.getKey(), e.getValue().asDouble()));
        var macro = new LinkedHashMap<String, Double>();
        node.path("macro")
                .properties()
                .forEach(e -> macro.put(e.getKey(), e.getValue().asDouble()));
        var counts = new LinkedHashMap<String, Integer>();
        node.path("counts")
                .properties()
                .forEach(e -> counts.put(e.getKey(), e.getValue().asInt()));
        var byDialog = new LinkedHashMap<String, Map<String, Double>>();
        node.path("by_dialog").properties().forEach(d -> {
            var values = new LinkedHashMap<String, Double>();
            d.getValue()
                    .properties()
                    .forEach(e -> values.put(e.getKey(), e.getValue().asDouble()));
            byDialog.put(d.getKey(), values);
        });
        return new MetricResult(node.path("metric_name").asText(""), micro, macro, counts, byDialog);
    }

    private static ObjectNode doubles(Map<String, Double> values) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        values.forEach(node::put);
        return node;
    }

    private static <V> Map<String, V> ordered(Map<String, V> values) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
