package dev.assay.dialog;

import dev.assay.dialog.internal.PythonJson;
import dev.assay.dialog.internal.Report;
import dev.assay.dialog.internal.TurnScorer;
import dev.assay.run.ScoreOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Scores recorded traces: joins the dataset's ground truth when one is given, builds the turn rows, computes the
 * metrics and writes {@code turn_eval.jsonl}, {@code metrics_summary.json} and {@code report.md} (and, only when an LLM
 * judge is given, {@code judge_eval.jsonl} and {@code judge_summary.json}). Thread-safe (stateless).
 */
public final class Scoring {
    public static final String TURN_EVAL_FILE = "turn_eval.jsonl";
    public static final String SUMMARY_FILE = "metrics_summary.json";
    public static final String REPORT_FILE = "report.md";

    private Scoring() {}

    /**
     * The scores of a run.
     *
     * @param traces the traces scored (ground truth joined), sorted by dataset index
     * @param rows their turn rows, in the same order
     * @param summary the metrics
     * @param judge the LLM judge's grades; empty when no judge was asked (the default)
     */
    public record Result(
            List<DialogTrace> traces, List<TurnEvalRow> rows, EvalSummary summary, Optional<JudgeScores> judge) {
        public Result {
            traces = List.copyOf(traces);
            rows = List.copyOf(rows);
            judge = Objects.requireNonNullElse(judge, Optional.empty());
        }

        /** Scores without an LLM judge. */
        public Result(List<DialogTrace> traces, List<TurnEvalRow> rows, EvalSummary summary) {
            this(traces, rows, summary, Optional.empty());
        }
    }

    /**
     * {@return the scores of these traces}
     *
     * @param traces the traces (any order: they are sorted by dataset index first)
     * @param dataset when present, each trace's ground truth is replaced by that of the dataset dialog with the same id
     *     (traces whose id is not in the dataset keep theirs)
     * @param runId the run's id; when null, the first trace's run id
     * @param datasetPath the dataset path to record in the summary
     * @param options metrics profile and baseline option
     */
    public static Result score(
            List<DialogTrace> traces,
            Optional<Dataset> dataset,
            String runId,
            String datasetPath,
            ScoreOptions options) {
        return score(traces, dataset, runId, datasetPath, options, Optional.empty());
    }

    /**
     * {@return the scores of these traces, with the LLM judge's metric when a judge is given}
     *
     * @param traces the traces (any order: they are sorted by dataset index first)
     * @param dataset when present, the ground truth to join (see {@link #score(List, Optional, String, String,
     *     ScoreOptions)})
     * @param runId the run's id; when null, the first trace's run id
     * @param datasetPath the dataset path to record in the summary
     * @param options metrics profile and baseline option
     * @param judge when present, grades the M5-eligible turns ({@value ExplainabilityJudge#METRIC}); the reference
     *     metrics are the same with or without it
     */
    public static Result score(
            List<DialogTrace> traces,
            Optional<Dataset> dataset,
            String runId,
            String datasetPath,
            ScoreOptions options,
            Optional<ExplainabilityJudge> judge) {
        var joined = new ArrayList<DialogTrace>();
        for (DialogTrace trace : TraceFile.sorted(traces)) {
            joined.add(dataset.flatMap(d -> d.find(trace.dialogId()))
                    .filter(Dialog::valid)
                    .map(trace::withGroundTruth)
                    .orElse(trace));
        }
        var rows = new ArrayList<TurnEvalRow>();
        joined.forEach(trace -> rows.addAll(TurnScorer.rows(trace, options)));
        String id = runId != null
                ? runId
                : joined.isEmpty() ? "" : joined.getFirst().runId();
        EvalSummary summary = Metrics.summarize(id, datasetPath, joined, rows);
        return new Result(joined, rows, summary, judge.map(j -> j.score(joined, rows)));
    }

    /** {@return the content of {@code turn_eval.jsonl}: one line per row, each ending in a newline} */
    public static String turnEvalText(List<TurnEvalRow> rows) {
        var text = new StringBuilder();
        rows.forEach(row -> text.append(PythonJson.line(row.toJson())).append('\n'));
        return text.toString();
    }

    /**
     * Writes {@code turn_eval.jsonl}, {@code metrics_summary.json} and {@code report.md} into the directory; with a
     * judge also {@code judge_eval.jsonl} and {@code judge_summary.json}, and the report gets the judge's section.
     */
    public static void write(Path dir, Result result) throws IOException {
        Files.createDirectories(dir);
        EvalSummary summary = result.summary();
        Files.writeString(dir.resolve(TURN_EVAL_FILE), turnEvalText(result.rows()), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(SUMMARY_FILE), summary.toFileText(), StandardCharsets.UTF_8);
        String report =
                result.judge().map(judge -> Report.markdown(summary, judge)).orElseGet(() -> Report.markdown(summary));
        Files.writeString(dir.resolve(REPORT_FILE), report, StandardCharsets.UTF_8);
        if (result.judge().isPresent()) {
            JudgeScores judge = result.judge().get();
            Files.writeString(dir.resolve(JudgeScores.TURN_FILE), judge.turnsText(), StandardCharsets.UTF_8);
            Files.writeString(
                    dir.resolve(JudgeScores.SUMMARY_FILE),
                    judge.summaryText(summary.runId(), summary.datasetPath()),
                    StandardCharsets.UTF_8);
        }
    }
}
