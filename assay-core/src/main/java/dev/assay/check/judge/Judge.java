package dev.assay.check.judge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.judge.internal.JudgeAnswer;
import dev.assay.check.judge.internal.JudgePrompt;
import dev.assay.check.judge.internal.JudgeSpec;
import dev.assay.model.ChatMessage;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.ResponseCache;
import dev.assay.transcript.Usage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One judge model grading answers against rubrics: the versioned prompt, temperature 0 with a fixed seed, the robust
 * reading of the reply and the answer cache, for every feature that needs an LLM grade (the {@code judge} checker, the
 * dialog metric {@code judge_explainability}). Thread-safe when its chat model is.
 */
public final class Judge {
    /** The sampling temperature of every judge request. */
    public static final double TEMPERATURE = 0.0;
    /** The version of the judge's prompt template, recorded with every grade. */
    public static final String PROMPT_VERSION = JudgePrompt.VERSION;
    /** SHA-256 of the judge's prompt template text. */
    public static final String PROMPT_HASH = JudgePrompt.HASH;

    private static final int MAX_TOKENS = 1024;

    private final JudgeModel model;
    private final ResponseCache cache;
    private final String scope;

    /**
     * A judge outside a run: answers apart by request alone.
     *
     * @param model the judge model
     * @param cache where answers are kept by request hash ({@link JudgeCache#disabled()} for none)
     */
    public Judge(JudgeModel model, ResponseCache cache) {
        this(model, cache, "");
    }

    /**
     * @param model the judge model
     * @param cache where answers are kept by request hash: a run's answers ({@link ResponseCache}), a
     *     {@link JudgeCache}, or {@link ResponseCache#NONE}
     * @param scope what besides the request tells answers apart, in the request hash when not empty: the case and
     *     sample in a run ({@code case#2}), as for the run's model calls
     */
    public Judge(JudgeModel model, ResponseCache cache, String scope) {
        this.model = Objects.requireNonNull(model, "model");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.scope = Objects.requireNonNull(scope, "scope");
    }

    /** {@return the judge model} */
    public JudgeModel model() {
        return model;
    }

    /**
     * The scale a judge grades on.
     *
     * @param passFail whether the judge answers pass/fail instead of a score
     * @param min the lowest score (0 for pass/fail)
     * @param max the highest score, above {@code min} (1 for pass/fail)
     */
    public record Scale(boolean passFail, double min, double max) {
        /** Pass or fail, read as 1 or 0. */
        public static final Scale PASS_FAIL = new Scale(true, 0, 1);

        public Scale {
            if (!(min < max) || (passFail && (min != 0 || max != 1))) {
                throw new IllegalArgumentException(
                        "a scale needs min < max (pass/fail: 0 and 1), got " + min + ".." + max);
            }
        }

        /** {@return the numeric scale from {@code min} to {@code max}} */
        public static Scale range(double min, double max) {
            return new Scale(false, min, max);
        }
    }

    /** What the judge made of one answer: a grade, or why there is none. */
    public sealed interface Judgement {
        /** {@return the cache key: SHA-256 of the full request (see {@link Judge})} */
        String requestHash();

        /** {@return whether the reply came from the cache} */
        boolean cached();

        /** {@return the judge's raw reply; null when it could not be asked} */
        String reply();

        /** {@return the tokens the judge model was paid for: none when the reply came from the cache} */
        Usage usage();
    }

    /**
     * A usable grade.
     *
     * @param requestHash the cache key of the request
     * @param cached whether the reply came from the cache
     * @param reply the judge's raw reply
     * @param score the score as the judge gave it (pass/fail: 1 or 0)
     * @param clamped the score limited to the scale
     * @param normalized the clamped score mapped to [0, 1]: {@code (clamped - min) / (max - min)}
     * @param reasoning the judge's explanation; empty when it gave none
     * @param usage the tokens of the judge's call; none when cached
     */
    public record Grade(
            String requestHash,
            boolean cached,
            String reply,
            double score,
            double clamped,
            double normalized,
            String reasoning,
            Usage usage)
            implements Judgement {
        public Grade {
            usage = usage == null ? Usage.NONE : usage;
        }

        /** A grade whose call's tokens are not known. */
        public Grade(
                String requestHash,
                boolean cached,
                String reply,
                double score,
                double clamped,
                double normalized,
                String reasoning) {
            this(requestHash, cached, reply, score, clamped, normalized, reasoning, Usage.NONE);
        }

        /** {@return whether the given score lay outside the scale (and was clamped)} */
        public boolean outOfScale() {
            return clamped != score;
        }
    }

    /**
     * No grade: the judge could not be asked ({@code target.*}) or its reply could not be read
     * ({@code judge.unparsable}).
     *
     * @param requestHash the cache key of the request
     * @param cached whether the reply came from the cache (always false: only parsable replies are cached)
     * @param reply the judge's raw reply; null when it could not be asked
     * @param problem what went wrong
     * @param usage the tokens of the judge's call (an unreadable reply is paid for too); none when it was not answered
     */
    public record Failure(String requestHash, boolean cached, String reply, Problem problem, Usage usage)
            implements Judgement {
        public Failure {
            Objects.requireNonNull(problem, "problem");
            usage = usage == null ? Usage.NONE : usage;
        }

        /** A failure without a paid call. */
        public Failure(String requestHash, boolean cached, String reply, Problem problem) {
            this(requestHash, cached, reply, problem, Usage.NONE);
        }
    }

    /**
     * Asks the judge to grade an answer, or takes its earlier reply to the same request from the cache. Failures of the
     * model and unreadable replies are returned, never thrown; only parsable replies are cached.
     *
     * @param rubric what a good answer does; not blank
     * @param scale the scale to grade on
     * @param task the task the answer responds to
     * @param answer the answer to grade (empty is shown to the judge as "(no answer)")
     * @return the grade or the failure
     * @throws InterruptedException when interrupted while the model is asked
     */
    public Judgement grade(String rubric, Scale scale, String task, String answer) throws InterruptedException {
        if (rubric == null || rubric.isBlank()) {
            throw new IllegalArgumentException("a judge needs a rubric");
        }
        var spec = new JudgeSpec(rubric, scale.passFail(), scale.min(), scale.max(), null, null, List.of(), null);
        List<ChatMessage> messages = JudgePrompt.messages(
                spec, Objects.requireNonNullElse(task, ""), Objects.requireNonNullElse(answer, ""));
        Asked asked = ask(messages, text -> JudgeAnswer.parse(text, spec) instanceof JudgeAnswer.Grade);
        if (asked.problem() != null) {
            return new Failure(asked.requestHash(), false, null, asked.problem());
        }
        return switch (JudgeAnswer.parse(asked.reply(), spec)) {
            case JudgeAnswer.Unusable unusable ->
                new Failure(asked.requestHash(), asked.cached(), asked.reply(), unusable.problem(), asked.usage());
            case JudgeAnswer.Grade grade ->
                new Grade(
                        asked.requestHash(),
                        asked.cached(),
                        asked.reply(),
                        grade.raw(),
                        grade.clamped(),
                        (grade.clamped() - scale.min()) / (scale.max() - scale.min()),
                        grade.reasoning(),
                        asked.usage());
        };
    }

    /**
     * The judge's reply to messages its caller wrote (another tool's grading prompt, such as promptfoo's
     * {@code llm-rubric}), asked as {@link #grade} asks: temperature 0, the fixed seed, the same cache, a reply kept
     * only when {@code usable} accepts it.
     *
     * @param requestHash the cache key of the request
     * @param cached whether the reply came from the cache
     * @param reply the judge's raw reply; null when it could not be asked
     * @param problem why the judge could not be asked ({@code target.*}); null when it answered
     * @param usage the tokens the call was paid for; none when the reply came from the cache or there was none
     */
    public record Asked(String requestHash, boolean cached, String reply, Problem problem, Usage usage) {
        public Asked {
            usage = usage == null ? Usage.NONE : usage;
        }
    }

    /**
     * Asks the judge {@code messages}, or takes its earlier reply to the same request from the cache.
     *
     * @param messages the whole conversation, system message first
     * @param usable whether a reply is worth keeping in the cache (an unreadable one is asked again next time)
     * @return the reply, or why there is none; failures of the model are returned, never thrown
     * @throws InterruptedException when interrupted while the model is asked
     */
    public Asked ask(List<ChatMessage> messages, java.util.function.Predicate<String> usable)
            throws InterruptedException {
        var request = new ModelRequest(
                messages, List.of(), TEMPERATURE, JudgeCheckerFactory.SEED, MAX_TOKENS, model.timeout());
        String key = requestHash(request);
        Optional<String> cached = cache.find(key).map(kept -> kept.path("text").asText(""));
        if (cached.isPresent()) {
            return new Asked(key, true, cached.get(), null, Usage.NONE);
        }
        ModelResponse response;
        try {
            response = model.model().complete(request);
        } catch (AssayException e) {
            return new Asked(key, false, null, e.problem(), Usage.NONE);
        }
        if (usable.test(response.text())) {
            cache.keep(key, Json.tree(response));
        }
        return new Asked(key, false, response.text(), null, response.usage());
    }

    /**
     * The cache key: judge model and base URL, the full messages, the sampling parameters and the scope when there is
     * one (docs/judge.md, "Cache"). The prompt's version is inside the messages' text and its hash in the key material.
     */
    private String requestHash(ModelRequest request) {
        ObjectNode material = Json.object();
        material.put("prompt_hash", JudgePrompt.HASH);
        material.put("model", model.model().name());
        material.put("base_url", model.baseUrl());
        var messages = material.putArray("messages");
        request.messages()
                .forEach(message -> messages.addObject()
                        .put("role", message.role().wireName())
                        .put("content", message.content()));
        material.putPOJO("temperature", request.temperature());
        material.putPOJO("seed", request.seed());
        material.putPOJO("max_tokens", request.maxTokens());
        if (!scope.isEmpty()) {
            material.put("scope", scope);
        }
        return ResponseCache.hash(material);
    }
}
