package dev.assay.report.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.report.Coverage;
import dev.assay.report.Reporter;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.Run;
import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code report.json}: the fixed top level ({@code run_id}, {@code status}, {@code total_score},
 * {@code dimension_scores}, {@code counts}, {@code config}, {@code items}) plus the rest of the run record and its tool
 * {@code coverage} ({@link Coverage}), each dimension's plain {@code dimension_stats} and the {@code intervals} the run
 * asks for ({@link RunReport.Intervals}: clustered, samples reduced); each item carries at least {@code case_id},
 * {@code dimension}, {@code status}, {@code score}, {@code max_score}, {@code weight}, {@code final_answer},
 * {@code tool_calls}, {@code checker_detail}, {@code error}, and its full transcript. Field names are frozen: new
 * fields may be added, none renamed.
 */
public final class JsonReporter implements Reporter {
    /** The report document's format version; raised only when a field's meaning changes. */
    static final int FORMAT_VERSION = 1;

    @Override
    public String name() {
        return "json";
    }

    @Override
    public String fileName() {
        return "report.json";
    }

    @Override
    public void write(RunReport report, OutputStream out) throws IOException {
        // The run's fields as a tree, the items one at a time after them: a report of any size is written in the memory
        // of one item.
        try (JsonGenerator json = Json.MAPPER
                .writer()
                .with(SerializationFeature.INDENT_OUTPUT)
                .createGenerator(out)
                .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                // A report cut short by a failure must not be closed into a valid document missing items.
                .disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT)) {
            json.writeStartObject();
            for (var field : header(report).properties()) {
                json.writeFieldName(field.getKey());
                if (field.getKey().equals("cost")) {
                    // by_case has an entry per case: streamed, not held.
                    report.writeCost(json);
                } else {
                    json.writeTree(field.getValue());
                }
            }
            json.writeArrayFieldStart("items");
            // A stored run's transcripts are copied out as stored, token by token, beside its brief items: parsing each
            // into a tree only to write it out again was most of this report's work.
            Iterable<Item> items =
                    report.items() instanceof StoredItems stored ? stored.withStoredTranscripts() : report.items();
            for (Item item : items) {
                json.writeObject(item);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    /** {@return the document's fields before {@code items}} */
    private static ObjectNode header(RunReport report) {
        Run run = report.run();
        ObjectNode root = Json.object();
        root.put("version", FORMAT_VERSION);
        root.put("run_id", run.runId());
        root.put("status", run.status().wireName());
        root.putPOJO("total_score", run.totalScore());
        root.set("dimension_scores", Json.tree(run.dimensionScores()));
        root.set("counts", Json.tree(run.counts()));
        root.set("dimension_stats", Json.tree(report.spreads()));
        root.set("intervals", Json.tree(report.intervals()));
        root.set("config", run.config());
        root.put("kind", run.kind().wireName());
        root.put("model_name", run.modelName());
        root.put("user_id", run.userId());
        root.put("language", run.language());
        root.put("case_set", run.caseSet());
        root.put("case_set_version", run.caseSetVersion());
        root.set("tool_snapshot", Json.tree(run.toolSnapshot()));
        root.set("started_at", Json.tree(run.startedAt()));
        root.set("finished_at", Json.tree(run.finishedAt()));
        root.put("elapsed_s", run.elapsedS());
        root.set("error", Json.tree(run.error()));
        root.set("metrics", Json.tree(run.metrics()));
        root.set("coverage", Json.tree(report.coverage()));
        root.put("cost_usd", report.cost().total().totalUsd());
        // The place of the cost, which write() streams.
        root.putNull("cost");
        report.matrix().ifPresent(matrix -> root.set("matrix", matrix.toJson()));
        report.headToHead().ifPresent(outcome -> root.set("head_to_head", outcome.toJson()));
        root.set("judge_warnings", Json.tree(report.judgeWarnings()));
        root.put("samples", report.samples());
        if (report.samples() > 1) {
            ObjectNode passAtK = root.putObject("pass_at_k");
            report.passAtK().forEach((k, value) -> passAtK.put(String.valueOf(k), value));
            ObjectNode passHatK = root.putObject("pass_hat_k");
            report.passHatK().forEach((k, value) -> passHatK.put(String.valueOf(k), value));
            root.set("case_samples", Json.tree(report.sampleSpreads()));
        }
        return root;
    }
}
