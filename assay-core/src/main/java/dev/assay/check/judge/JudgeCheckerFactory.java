package dev.assay.check.judge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import dev.assay.check.judge.internal.JudgePrompt;
import dev.assay.check.judge.internal.JudgeSpec;
import dev.assay.check.judge.internal.JudgedConversation;
import dev.assay.model.ResponseCache;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code judge} checker: {@code expected = {rubric, scale: [min, max] | "pass_fail", threshold?, model? | judges?,
 * aggregation?}}. A configured judge model grades the case's final answer (in a conversation case, the whole
 * conversation with its tool calls) against the rubric at temperature 0 with a fixed seed; its reasoning, score, the
 * prompt version and hash, and the request hash are kept in the verdict detail. With a threshold the check passes when
 * the score reaches it; without one a numeric score gives partial credit (the score mapped to [0, 1]). Thread-safe.
 *
 * <p>Inside a run the judge's answers are the run's ({@link CheckContext#responses()}), keyed by the request and the
 * case and sample: always reused within the run and its resume, and across runs when the run reuses answers
 * ({@code --cache}) unless this factory's cache is disabled ({@code defaults.judge_cache: false}). Outside a run they
 * are kept in this factory's cache.
 *
 * <p>The factory without judges ({@link #JudgeCheckerFactory()}) validates {@code expected} when a suite loads and
 * skips every judge check with {@code judge.not_configured}: a missing judge, like a missing tool, makes a case
 * unrunnable here rather than wrong.
 */
public final class JudgeCheckerFactory implements CheckerFactory {
    public static final String NAME = "judge";
    /** Fixed so a judge that honours seeds answers the same request the same way (docs/judge.md, "The request"). */
    public static final long SEED = 20260101L;

    private final Map<String, JudgeModel> judges;
    private final JudgeCache cache;

    /**
     * The factory without a judge model, as {@link java.util.ServiceLoader} makes it: judge checks validate at load and
     * are skipped with {@code judge.not_configured} when they run.
     */
    public JudgeCheckerFactory() {
        this(List.of(), JudgeCache.disabled());
    }

    /**
     * @param judges the configured judges; the first is the default for checks that name none; empty for a factory that
     *     skips every judge check
     * @param cache where answers are kept by request hash for checks outside a run; {@link JudgeCache#disabled()} keeps
     *     none there and, inside a run, uses none of other runs
     */
    public JudgeCheckerFactory(List<JudgeModel> judges, JudgeCache cache) {
        var byName = new LinkedHashMap<String, JudgeModel>();
        for (JudgeModel judge : judges) {
            if (byName.put(judge.name(), judge) != null) {
                throw new IllegalArgumentException("two judges are named '" + judge.name() + "'");
            }
        }
        this.judges = Collections.unmodifiableMap(byName);
        this.cache = cache;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @throws AssayException {@code check.invalid_expected} for a malformed expectation or an unknown judge name */
    @Override
    public Checker create(JsonNode expected) {
        JudgeSpec spec = JudgeSpec.parse(expected);
        if (judges.isEmpty()) {
            return context ->
                    Verdict.skipped("judge.not_configured", "no judge model is configured (assay.yaml 'judges')");
        }
        if (!spec.panel().isEmpty()) {
            var panel = new ArrayList<JudgeModel>();
            for (String name : spec.panel()) {
                JudgeModel member = judges.get(name);
                if (member == null) {
                    throw JudgeSpec.invalid(
                            "judges", "names of the configured judges " + judges.keySet(), expected.get("judges"));
                }
                panel.add(member);
            }
            return context -> panel(spec, panel, context);
        }
        JudgeModel judge = spec.model() == null ? judges.values().iterator().next() : judges.get(spec.model());
        if (judge == null) {
            throw JudgeSpec.invalid("model", "one of the configured judges " + judges.keySet(), expected.get("model"));
        }
        return context -> judge(spec, judge, context);
    }

    /**
     * Asks every judge of a panel, one after the other (each call is already bounded by its judge's timeout), and
     * combines their verdicts by the spec's aggregation. Every judge's verdict, score and reasoning stay in the detail
     * ({@code judges}), so a split panel is visible ({@code disagreement}).
     */
    private Verdict panel(JudgeSpec spec, List<JudgeModel> panel, CheckContext context) throws InterruptedException {
        ObjectNode detail = Json.object();
        detail.put("prompt_version", Judge.PROMPT_VERSION);
        detail.put("prompt_hash", Judge.PROMPT_HASH);
        detail.put("rubric", spec.rubric());
        detail.set("scale", spec.passFail() ? Json.tree("pass_fail") : Json.tree(List.of(spec.min(), spec.max())));
        detail.putPOJO("threshold", spec.threshold());
        detail.put("aggregation", spec.aggregation().wireName());
        ArrayNode members = detail.putArray("judges");
        var verdicts = new ArrayList<Verdict>();
        for (JudgeModel judge : panel) {
            Verdict verdict = judge(spec, judge, context);
            verdicts.add(verdict);
            ObjectNode member = ((ObjectNode) verdict.detail()).deepCopy();
            member.remove(List.of("prompt_version", "prompt_hash", "rubric", "scale", "threshold"));
            member.put("status", verdict.status().wireName());
            member.put("credit", verdict.score());
            member.put("message", verdict.message());
            members.add(member);
        }
        long passed = verdicts.stream()
                .filter(verdict -> verdict.status() == Verdict.Status.PASSED)
                .count();
        detail.put(
                "disagreement",
                verdicts.stream().map(Verdict::status).distinct().count() > 1);
        for (int i = 0; i < verdicts.size(); i++) {
            Verdict verdict = verdicts.get(i);
            if (verdict.status() == Verdict.Status.ERROR) {
                return new Verdict(
                        Verdict.Status.ERROR,
                        0,
                        verdict.errorType(),
                        "judge " + panel.get(i).name() + ": " + verdict.message(),
                        detail);
            }
        }
        String tally = passed + " of " + verdicts.size() + " judges passed the answer";
        return switch (spec.aggregation()) {
            case MAJORITY -> Verdict.of(passed * 2 > verdicts.size(), "judge.failed", tally, detail);
            case ALL -> {
                double lowest =
                        verdicts.stream().mapToDouble(Verdict::score).min().orElse(0);
                yield passed == verdicts.size()
                        ? Verdict.passed(detail)
                        : lowest <= 0
                                ? Verdict.failed("judge.failed", tally, detail)
                                : Verdict.partial(lowest, "judge.partial", tally, detail);
            }
            case MEAN -> mean(spec, members, tally, detail);
        };
    }

    /**
     * The panel's mean score, judged as one judge's score on the same scale; on a pass/fail scale a split panel earns
     * the share of judges that passed the answer as partial credit.
     */
    private static Verdict mean(JudgeSpec spec, ArrayNode members, String tally, ObjectNode detail) {
        double score = 0;
        for (JsonNode member : members) {
            score += Math.max(
                    spec.min(), Math.min(spec.max(), member.path("score").asDouble()));
        }
        score /= members.size();
        double normalized = (score - spec.min()) / (spec.max() - spec.min());
        detail.put("score", score);
        detail.put("normalized_score", normalized);
        if (spec.threshold() != null) {
            return Verdict.of(
                    score >= spec.threshold(),
                    "judge.below_threshold",
                    "the judges' mean score is " + JudgePrompt.number(score) + ", below "
                            + JudgePrompt.number(spec.threshold()) + " (" + tally + ")",
                    detail);
        }
        if (normalized >= 1) {
            return Verdict.passed(detail);
        }
        return normalized <= 0
                ? Verdict.failed("judge.failed", tally, detail)
                : Verdict.partial(normalized, "judge.partial", tally, detail);
    }

    private Verdict judge(JudgeSpec spec, JudgeModel judge, CheckContext context) throws InterruptedException {
        Judge.Scale scale = spec.passFail() ? Judge.Scale.PASS_FAIL : Judge.Scale.range(spec.min(), spec.max());
        ResponseCache answers = cache.forCheck(context);
        boolean conversation = JudgedConversation.isConversation(context.transcript());
        Judge.Judgement judgement = new Judge(judge, answers, context.scope())
                .grade(
                        spec.rubric(),
                        scale,
                        conversation
                                ? JudgedConversation.TASK
                                : context.evalCase().prompt(),
                        conversation ? JudgedConversation.text(context.transcript()) : context.finalAnswer());
        ObjectNode detail = Json.object();
        detail.put("judge", judge.name());
        detail.put("judge_model", judge.model().name());
        detail.put("prompt_version", Judge.PROMPT_VERSION);
        detail.put("prompt_hash", Judge.PROMPT_HASH);
        detail.put("request_hash", judgement.requestHash());
        if (judgement.usage().totalTokens() > 0) {
            // Read by dev.assay.cost.ItemCost: a judge's tokens are counted and priced apart from the subject's.
            detail.putObject("usage")
                    .put("role", "judge")
                    .put("model", judge.model().name())
                    .put("input_tokens", judgement.usage().inputTokens())
                    .put("cached_input_tokens", judgement.usage().cachedInputTokens())
                    .put("output_tokens", judgement.usage().outputTokens());
        }
        detail.put("rubric", spec.rubric());
        detail.set("scale", spec.passFail() ? Json.tree("pass_fail") : Json.tree(List.of(spec.min(), spec.max())));
        detail.putPOJO("threshold", spec.threshold());
        if (judgement.reply() != null) {
            detail.put("cached", judgement.cached());
            detail.put("answer", judgement.reply());
        }
        return switch (judgement) {
            case Judge.Failure failure
            when failure.reply() == null ->
                new Verdict(
                        Verdict.Status.ERROR,
                        0,
                        failure.problem().type(),
                        "the judge could not be asked: " + failure.problem().message(),
                        detail);
            case Judge.Failure failure ->
                new Verdict(
                        Verdict.Status.ERROR,
                        0,
                        failure.problem().type(),
                        failure.problem().message(),
                        detail);
            case Judge.Grade grade -> verdict(spec, grade, detail);
        };
    }

    private static Verdict verdict(JudgeSpec spec, Judge.Grade grade, ObjectNode detail) {
        double normalized = grade.normalized();
        detail.put("score", grade.score());
        detail.put("out_of_scale", grade.outOfScale());
        detail.put("normalized_score", normalized);
        detail.put("reasoning", grade.reasoning());
        String because = grade.reasoning().isEmpty() ? "" : ": " + grade.reasoning();
        if (spec.passFail()) {
            return Verdict.of(normalized == 1, "judge.failed", "the judge failed the answer" + because, detail);
        }
        String score = JudgePrompt.number(grade.score()) + " of " + JudgePrompt.number(spec.max());
        if (spec.threshold() != null) {
            return Verdict.of(
                    grade.clamped() >= spec.threshold(),
                    "judge.below_threshold",
                    "the judge scored " + score + ", below " + JudgePrompt.number(spec.threshold()) + because,
                    detail);
        }
        if (normalized >= 1) {
            return Verdict.passed(detail);
        }
        return normalized <= 0
                ? Verdict.failed("judge.failed", "the judge scored " + score + because, detail)
                : Verdict.partial(normalized, "judge.partial", "the judge scored " + score + because, detail);
    }
}
