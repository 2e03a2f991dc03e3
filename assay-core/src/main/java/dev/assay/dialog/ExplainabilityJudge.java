package dev.assay.dialog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Problem;
import dev.assay.check.judge.Judge;
import dev.assay.check.judge.JudgeCheckerFactory;
import dev.assay.dialog.internal.PythonJson;
import dev.assay.dialog.internal.ReferenceTables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The optional metric {@value #METRIC}: an LLM judge grades each M5-eligible turn's reply against the M5 explainability
 * rubric on a 1–5 scale (docs/dialog.md, "LLM judge"). It complements M5, whose {@code judge_score_1_5} is the
 * reference's keyword heuristic, and never changes the reference metrics. A judge failure is counted
 * ({@code judge_error_count}) and leaves that turn out of the means; nothing aborts. Thread-safe when the judge's model
 * is.
 */
public final class ExplainabilityJudge {
    public static final String METRIC = "judge_explainability";
    /** The version of {@link #RUBRIC}; a changed text means a new version. */
    public static final String RUBRIC_VERSION = "memfin-m5-judge-v1";
    /** The judge's scale: 1 (no explanation) to 5 (fully explained), normalised to [0, 1] as {@code (s - 1) / 4}. */
    public static final Judge.Scale SCALE = Judge.Scale.range(1, 5);

    // English instructions with the dataset's Chinese item names, so the judge can map explainability_rubric_gt.
    static final String RUBRIC = """
            Grade how well the financial advisor's reply EXPLAINS its answer to this client (MemFin metric M5, \
            explainability). The dialog is usually in Chinese: read the reply in its own language, judge substance \
            rather than keywords (the word 风险 alone explains no risk), and do not reward length.
            The elements of a well-explained reply:
            1. 信息依据 (basis): the reasons and the information the answer rests on (data, indicators, reports, \
            facts the client gave).
            2. 风险收益平衡 (risk and return): the risks named next to the possible returns (drawdown, volatility, \
            what can go wrong).
            3. 与画像匹配 (suitability): the answer tied to this client's risk tolerance, horizon, liquidity needs \
            and constraints.
            4. 方案比较维度 (comparison): options compared along clear dimensions where there is a choice.
            5. 可执行步骤 (actionable steps): concrete next steps.
            6. 边界声明 (boundaries): what the answer is not (no guaranteed return, not individual investment advice).
            Score 5: every element expected in this turn is present, substantive and specific to this client.
            Score 3: about half of the expected elements are present, or they are present but generic.
            Score 1: no explanation: bare claims or recommendations without reasons, risks or suitability.
            Elements expected in this turn: %s""";

    /** SHA-256 of {@link #RUBRIC}'s template text. */
    public static final String RUBRIC_HASH = ReferenceTables.sha256(RUBRIC);

    private final Judge judge;
    private final int workers;

    /**
     * @param judge the judge (its model, base URL and answer cache)
     * @param workers turns graded in parallel, at least 1
     */
    public ExplainabilityJudge(Judge judge, int workers) {
        this.judge = Objects.requireNonNull(judge, "judge");
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
        this.workers = workers;
    }

    /** {@return turns graded in parallel} */
    public int workers() {
        return workers;
    }

    /**
     * {@return what decides the judge's grades, for the manifest and {@code judge_summary.json}: metric, judge model
     * and base URL, temperature, seed, prompt and rubric versions and hashes, scale and workers}
     */
    public ObjectNode describe() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("metric", METRIC);
        node.put("judge_model", judge.model().model().name());
        node.put("base_url", judge.model().baseUrl());
        node.put("temperature", Judge.TEMPERATURE);
        node.put("seed", JudgeCheckerFactory.SEED);
        node.put("prompt_version", Judge.PROMPT_VERSION);
        node.put("prompt_hash", Judge.PROMPT_HASH);
        node.put("rubric_version", RUBRIC_VERSION);
        node.put("rubric_hash", RUBRIC_HASH);
        node.putArray("scale").add(SCALE.min()).add(SCALE.max());
        node.put("workers_judge", workers);
        return node;
    }

    /**
     * {@return the judge's grades of the M5-eligible turns and the metric}
     *
     * @param traces the scored traces (ground truth joined), in dataset order
     * @param rows their turn rows, in the same order
     */
    public JudgeScores score(List<DialogTrace> traces, List<TurnEvalRow> rows) {
        var turns = new HashMap<String, TurnTrace>();
        var dialogs = new HashMap<String, DialogTrace>();
        for (DialogTrace trace : traces) {
            dialogs.put(trace.dialogId(), trace);
            trace.turns().forEach(turn -> turns.put(key(trace.dialogId(), turn.turnPairId()), turn));
        }
        List<TurnEvalRow> eligible =
                rows.stream().filter(TurnEvalRow::eligibleM5).toList();
        var futures = new ArrayList<Future<Judge.Judgement>>();
        try (ExecutorService pool = Executors.newFixedThreadPool(
                workers, Thread.ofVirtual().name("judge-", 0).factory())) {
            for (TurnEvalRow row : eligible) {
                DialogTrace trace = dialogs.get(row.dialogId());
                TurnTrace turn = turns.get(key(row.dialogId(), row.turnPairId()));
                futures.add(pool.submit(() -> grade(trace, turn, row)));
            }
        }
        var judged = new ArrayList<JudgeScores.JudgedTurn>();
        for (int i = 0; i < eligible.size(); i++) {
            TurnEvalRow row = eligible.get(i);
            judged.add(new JudgeScores.JudgedTurn(
                    row.runId(), row.dialogId(), row.turnPairId(), row.rubricRequired(), result(futures.get(i))));
        }
        return new JudgeScores(describe(), judged, aggregate(judged, rows.size()));
    }

    private Judge.Judgement grade(DialogTrace trace, TurnTrace turn, TurnEvalRow row) throws InterruptedException {
        String rubric = RUBRIC.formatted(String.join(", ", row.rubricRequired()));
        String task = "A client's message in a financial advisory dialog (turn " + row.turnPairId() + ").\n"
                + "Client profile (reference): " + PythonJson.line(trace.profileGt()) + "\n"
                + "Client's message:\n" + turn.userText();
        return judge.grade(rubric, SCALE, task, turn.predAssistantText());
    }

    /** A judge that throws (a bug, an interrupted run) costs its turn, never the scores of the others. */
    private static Judge.Judgement result(Future<Judge.Judgement> future) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String type = cause instanceof InterruptedException ? "judge.interrupted" : "judge.error";
            return new Judge.Failure("", false, null, Problem.of(type, String.valueOf(cause)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Judge.Failure("", false, null, Problem.of("judge.interrupted", "scoring was interrupted"));
        }
    }

    /** micro over graded turns, by_dialog for dialogs with a graded turn, macro the mean of by_dialog (§3.6). */
    static MetricResult aggregate(List<JudgeScores.JudgedTurn> judged, int rowCount) {
        var groups = new LinkedHashMap<String, List<Judge.Grade>>();
        var graded = new ArrayList<Judge.Grade>();
        int cached = 0;
        int outOfScale = 0;
        for (JudgeScores.JudgedTurn turn : judged) {
            if (turn.judgement() instanceof Judge.Grade grade) {
                graded.add(grade);
                groups.computeIfAbsent(turn.dialogId(), id -> new ArrayList<>()).add(grade);
                cached += grade.cached() ? 1 : 0;
                outOfScale += grade.outOfScale() ? 1 : 0;
            }
        }
        var byDialog = new LinkedHashMap<String, Map<String, Double>>();
        groups.forEach((id, grades) -> byDialog.put(id, means(grades)));
        var macro = new LinkedHashMap<String, Double>();
        for (String key : means(List.of()).keySet()) {
            double total = 0.0;
            for (Map<String, Double> values : byDialog.values()) {
                total += values.get(key);
            }
            macro.put(key, byDialog.isEmpty() ? 0.0 : total / byDialog.size());
        }
        int errors = judged.size() - graded.size();
        var counts = new LinkedHashMap<String, Integer>();
        counts.put("eligible_count", judged.size());
        counts.put("skipped_count", rowCount - judged.size());
        counts.put("failed_count", errors);
        counts.put("judge_scored_turns", graded.size());
        counts.put("judge_error_count", errors);
        counts.put("judge_cached_count", cached);
        counts.put("judge_out_of_scale_count", outOfScale);
        return new MetricResult(METRIC, means(graded), macro, counts, byDialog);
    }

    private static Map<String, Double> means(List<Judge.Grade> grades) {
        double score = 0.0;
        double normalized = 0.0;
        for (Judge.Grade grade : grades) {
            score += grade.clamped();
            normalized += grade.normalized();
        }
        var values = new LinkedHashMap<String, Double>();
        values.put("judge_score_mean", grades.isEmpty() ? 0.0 : score / grades.size());
        values.put("judge_normalized_mean", grades.isEmpty() ? 0.0 : normalized / grades.size());
        return values;
    }

    private static String key(String dialogId, int turnPairId) {
        return dialogId + "\u0000" + turnPairId;
    }
}
