package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Problem;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.score.Scores;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps a dialog run to the stored {@link Run} (kind {@code dialog}) and one {@link Item} per dialog, for
 * {@link dev.assay.store.Store}. Thread-safe (stateless).
 *
 * <p>Dimension scores {@code m1}…{@code m5} are each metric's headline micro value in [0, 1]: M1 {@code key_coverage},
 * M2 {@code profile_score}, M3 {@code risk_coverage}, M4 {@code compliance_label_acc}, M5 {@code rubric_hit_rate}; the
 * total is their plain mean. With an LLM judge, {@code m5_judge} is its {@code judge_normalized_mean} in [0, 1], kept
 * out of the total; the config snapshot then has {@code judge_summary}, items have {@code metrics.m5_judge} and each
 * judged turn a {@code judge} entry. The full summary is in the run's config snapshot under {@code metrics_summary}. An
 * item's score is the mean of the same values over that dialog's by-dialog entries; its {@code checker_detail} holds
 * the dialog's by-dialog values and one entry per turn.
 */
public final class DialogRunRecords {
    /** The dimension of the optional LLM judge's metric ({@value ExplainabilityJudge#METRIC}). */
    public static final String JUDGE_DIMENSION = "m5_judge";

    private static final String JUDGE_HEADLINE = "judge_normalized_mean";
    private static final Map<String, String> HEADLINES = headlines();

    private DialogRunRecords() {}

    /**
     * {@return a dialog run's config snapshot: its manifest, and its description under
     * {@value dev.assay.run.EvalSpec#DIALOG_KEY} when it has one}
     */
    static ObjectNode config(ObjectNode manifest, ObjectNode request) {
        if (request != null) {
            manifest.set(dev.assay.run.EvalSpec.DIALOG_KEY, request.deepCopy());
        }
        return manifest;
    }

    /**
     * {@return the run's final record: the engine's status, counts and times, with the metrics as dimension scores and
     * the manifest and metrics summary in its config snapshot}
     *
     * @param ended the record as the engine ended it
     * @param computed the metrics computed over the run's items
     * @param request the run's description ({@link dev.assay.run.EvalSpec#toJson()}); null for none
     */
    public static Run run(Run ended, DialogWorkload.Computed computed, ObjectNode request) {
        EvalSummary summary = computed.scores().summary();
        Scores scores = scores(computed.scores());
        ObjectNode config = config(computed.manifest().toJson(), request);
        config.set("metrics_summary", summary.toJson());
        computed.scores().judge().ifPresent(judge -> {
            ObjectNode judgeSummary = config.putObject("judge_summary");
            judgeSummary.set("judge", judge.judge());
            judgeSummary.set("metric", judge.metric().toJson());
        });
        return new Run(
                ended.runId(),
                RunKind.DIALOG,
                ended.userId(),
                ended.modelName(),
                ended.language(),
                ended.status(),
                ended.caseSet(),
                ended.caseSetVersion(),
                config,
                ended.toolSnapshot(),
                scores.dimensionScores(),
                scores.total(),
                ended.counts(),
                ended.startedAt(),
                ended.finishedAt(),
                ended.elapsedS(),
                ended.error(),
                ended.metrics());
    }

    /**
     * {@return the run's dimension scores, each metric's headline micro value, and their mean as the total}
     *
     * @param scores the metrics computed over the run's dialogs
     */
    public static Scores scores(Scoring.Result scores) {
        EvalSummary summary = scores.summary();
        var dimensions = new LinkedHashMap<String, Double>();
        HEADLINES.forEach((metric, key) ->
                dimensions.put(dimension(metric), summary.metric(metric).micro().get(key)));
        double total =
                dimensions.values().stream().mapToDouble(Double::doubleValue).sum() / dimensions.size();
        // The judge's metric is shown beside M5, not averaged into the total: the total stays the reference's.
        scores.judge()
                .ifPresent(judge ->
                        dimensions.put(JUDGE_DIMENSION, judge.metric().micro().get(JUDGE_HEADLINE)));
        return new Scores(dimensions, total);
    }

    /**
     * {@return the item of one replayed dialog}
     *
     * @param runId the run's id
     * @param seq the dialog's place in the dataset, from 0
     * @param trace the dialog's trace
     * @param scores scores that include this trace (the dialog's own, or the run's)
     * @param startedAt when its replay started
     * @param finishedAt when it ended
     */
    public static Item item(
            String runId, int seq, DialogTrace trace, Scoring.Result scores, Instant startedAt, Instant finishedAt) {
        EvalSummary summary = scores.summary();
        List<TurnEvalRow> rows = scores.rows().stream()
                .filter(row -> row.dialogId().equals(trace.dialogId()))
                .toList();
        ObjectNode detail = JsonNodeFactory.instance.objectNode();
        ObjectNode metrics = detail.putObject("metrics");
        var headline = new ArrayList<Double>();
        HEADLINES.forEach((metric, key) -> {
            Map<String, Double> values = summary.metric(metric).byDialog().get(trace.dialogId());
            if (values != null) {
                metrics.set(dimension(metric), doubles(values));
                headline.add(values.get(key));
            }
        });
        scores.judge().ifPresent(judge -> {
            Map<String, Double> values = judge.metric().byDialog().get(trace.dialogId());
            if (values != null) {
                metrics.set(JUDGE_DIMENSION, doubles(values));
            }
        });
        detail.set("turns", turns(trace, rows, scores.judge()));
        double score = headline.isEmpty()
                ? 0.0
                : headline.stream().mapToDouble(Double::doubleValue).sum() / headline.size();
        ArrayNode transcript = JsonNodeFactory.instance.arrayNode();
        trace.turns().forEach(turn -> transcript.add(turn.toJson()));
        String lastAnswer =
                trace.turns().isEmpty() ? "" : trace.turns().getLast().predAssistantText();
        String firstPrompt =
                trace.turns().isEmpty() ? "" : trace.turns().getFirst().userText();
        double elapsed =
                trace.turns().stream().mapToDouble(TurnTrace::latencyMs).sum() / 1000.0;
        return new Item(
                runId,
                trace.dialogId(),
                seq,
                trace.scenarioType() == null ? "dialog" : trace.scenarioType(),
                status(trace),
                status(trace).isScored() ? score : 0.0,
                1.0,
                1.0,
                firstPrompt,
                lastAnswer,
                List.of(),
                detail,
                problem(trace),
                transcript,
                startedAt,
                finishedAt,
                elapsed);
    }

    /**
     * {@return each metric's dimension ({@code m1}…{@code m5}) and the name of its headline value, as
     * "m1_context_continuity key_coverage", in metric order, then the LLM judge's ({@value #JUDGE_DIMENSION})}: the
     * names of a dialog run's dimension scores
     */
    public static Map<String, String> dimensionNames() {
        var names = new LinkedHashMap<String, String>();
        HEADLINES.forEach((metric, key) -> names.put(dimension(metric), metric + " " + key));
        names.put(JUDGE_DIMENSION, ExplainabilityJudge.METRIC + " " + JUDGE_HEADLINE);
        return Collections.unmodifiableMap(names);
    }

    /**
     * {@return a stored dialog's headline values by dimension ({@code m1}…{@code m5}, then {@code m5_judge} when it was
     * judged)}: a metric with no eligible turn in the dialog is absent
     *
     * @param item the dialog's stored item
     */
    public static Map<String, Double> itemScores(Item item) {
        JsonNode metrics =
                item.checkerDetail() == null ? null : item.checkerDetail().path("metrics");
        var values = new LinkedHashMap<String, Double>();
        if (metrics == null) {
            return values;
        }
        HEADLINES.forEach((metric, key) -> {
            JsonNode value = metrics.path(dimension(metric)).path(key);
            if (value.isNumber()) {
                values.put(dimension(metric), value.doubleValue());
            }
        });
        JsonNode judged = metrics.path(JUDGE_DIMENSION).path(JUDGE_HEADLINE);
        if (judged.isNumber()) {
            values.put(JUDGE_DIMENSION, judged.doubleValue());
        }
        return values;
    }

    /**
     * {@return the trace of a dialog as its stored item tells it, with the dataset's ground truth; empty for an item
     * that is not a replayed dialog's (cancelled)}
     *
     * @param runId the run's id
     * @param dialog the dataset's dialog
     * @param item its stored item
     */
    public static Optional<DialogTrace> trace(String runId, Dialog dialog, Item item) {
        var turns = new ArrayList<TurnTrace>();
        item.transcript().forEach(turn -> turns.add(TurnTrace.fromJson(turn)));
        return switch (item.status()) {
            case PASSED -> Optional.of(DialogTrace.of(runId, dialog, DialogStatus.OK, turns, null));
            case PARTIAL, FAILED -> Optional.of(DialogTrace.of(runId, dialog, DialogStatus.PARTIAL, turns, null));
            case SKIPPED -> Optional.of(DialogTrace.of(runId, dialog, DialogStatus.SKIPPED, List.of(), null));
            case ERROR ->
                Optional.of(DialogTrace.of(
                        runId,
                        dialog,
                        DialogStatus.FAILED,
                        turns,
                        item.error() == null ? null : item.error().message()));
            case CANCELLED -> Optional.empty();
        };
    }

    private static ArrayNode turns(DialogTrace trace, List<TurnEvalRow> rows, Optional<JudgeScores> judge) {
        ArrayNode turns = JsonNodeFactory.instance.arrayNode();
        for (TurnTrace turn : trace.turns()) {
            ObjectNode node = rows.stream()
                    .filter(row -> row.turnPairId() == turn.turnPairId())
                    .findFirst()
                    .map(TurnEvalRow::toJson)
                    .orElseGet(JsonNodeFactory.instance::objectNode);
            node.put("turn_status", turn.turnStatus().wireName());
            node.put("error", turn.error());
            node.put("user_text", turn.userText());
            node.put("pred_assistant_text", turn.predAssistantText());
            ArrayNode sources = node.putArray("recall_sources");
            for (JsonNode item : turn.recall().path("items")) {
                sources.addObject()
                        .put("source", item.path("source").asText(""))
                        .put("content", item.path("content").asText(""));
            }
            judge.flatMap(scores -> scores.turns().stream()
                            .filter(judged -> judged.dialogId().equals(trace.dialogId())
                                    && judged.turnPairId() == turn.turnPairId())
                            .findFirst())
                    .ifPresent(judged -> node.set("judge", judged.toJson()));
            turns.add(node);
        }
        return turns;
    }

    private static ItemStatus status(DialogTrace trace) {
        return switch (trace.dialogStatus()) {
            case OK -> ItemStatus.PASSED;
            case PARTIAL -> ItemStatus.PARTIAL;
            case SKIPPED -> ItemStatus.SKIPPED;
            case FAILED -> ItemStatus.ERROR;
        };
    }

    private static Problem problem(DialogTrace trace) {
        return switch (trace.dialogStatus()) {
            case OK, PARTIAL -> null;
            case SKIPPED ->
                Problem.of("dialog.skipped." + trace.skipReason(), "invalid dataset line: " + trace.skipReason());
            case FAILED -> Problem.of("dialog.failed", trace.dialogError());
        };
    }

    private static ObjectNode doubles(Map<String, Double> values) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        values.forEach(node::put);
        return node;
    }

    private static String dimension(String metric) {
        return metric.substring(0, 2);
    }

    private static Map<String, String> headlines() {
        var map = new LinkedHashMap<String, String>();
        map.put(Metrics.M1, "key_coverage");
        map.put(Metrics.M2, "profile_score");
        map.put(Metrics.M3, "risk_coverage");
        map.put(Metrics.M4, "compliance_label_acc");
        map.put(Metrics.M5, "rubric_hit_rate");
        return Collections.unmodifiableMap(map);
    }
}
