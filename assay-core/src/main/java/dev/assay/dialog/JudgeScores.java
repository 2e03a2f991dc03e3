package dev.assay.dialog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.check.judge.Judge;
import dev.assay.dialog.internal.PythonJson;
import java.util.List;
import java.util.Objects;

/**
 * The LLM judge's grades of a run ({@link ExplainabilityJudge}): written to {@code judge_summary.json} and
 * {@code judge_eval.jsonl}, next to (never inside) the reference's files.
 *
 * @param judge what decided the grades ({@link ExplainabilityJudge#describe()})
 * @param turns one entry per M5-eligible turn, in row order
 * @param metric the metric {@value ExplainabilityJudge#METRIC}
 */
public record JudgeScores(ObjectNode judge, List<JudgedTurn> turns, MetricResult metric) {
    public static final String SUMMARY_FILE = "judge_summary.json";
    public static final String TURN_FILE = "judge_eval.jsonl";

    public JudgeScores {
        judge = judge.deepCopy();
        turns = List.copyOf(turns);
        Objects.requireNonNull(metric, "metric");
    }

    /**
     * One graded (or failed) turn.
     *
     * @param runId the run's id
     * @param dialogId the dialog's id
     * @param turnPairId 1-based pair number
     * @param rubricRequired the turn's {@code explainability_rubric_gt} items, named in the judge's rubric
     * @param judgement the grade, or why there is none
     */
    public record JudgedTurn(
            String runId, String dialogId, int turnPairId, List<String> rubricRequired, Judge.Judgement judgement) {
        public JudgedTurn {
            Objects.requireNonNull(dialogId, "dialogId");
            rubricRequired = List.copyOf(rubricRequired);
            Objects.requireNonNull(judgement, "judgement");
        }

        /** {@return the line of {@code judge_eval.jsonl}} */
        public ObjectNode toJson() {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            node.put("run_id", runId);
            node.put("dialog_id", dialogId);
            node.put("turn_pair_id", turnPairId);
            rubricRequired.forEach(node.putArray("rubric_required")::add);
            node.put("request_hash", judgement.requestHash());
            node.put("cached", judgement.cached());
            switch (judgement) {
                case Judge.Grade grade -> {
                    node.put("status", "graded");
                    node.put("score", grade.score());
                    node.put("normalized_score", grade.normalized());
                    node.put("out_of_scale", grade.outOfScale());
                    node.put("reasoning", grade.reasoning());
                }
                case Judge.Failure failure -> {
                    node.put("status", "error");
                    node.put("error_type", failure.problem().type());
                    node.put("error", failure.problem().message());
                }
            }
            node.put("judge_reply", judgement.reply());
            return node;
        }
    }

    /**
     * {@return the content of {@code judge_summary.json}: indent 2, non-ASCII unescaped, like the reference's files}
     */
    public String summaryText(String runId, String datasetPath) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("run_id", runId);
        node.put("trace_version", DialogTrace.VERSION);
        node.put("dataset_path", datasetPath);
        node.set("judge", judge);
        node.putObject("metrics").set(metric.metricName(), metric.toJson());
        return PythonJson.indented(node);
    }

    /** {@return the content of {@code judge_eval.jsonl}: one line per judged turn, each ending in a newline} */
    public String turnsText() {
        var text = new StringBuilder();
        turns.forEach(turn -> text.append(PythonJson.line(turn.toJson())).append('\n'));
        return text.toString();
    }
}
