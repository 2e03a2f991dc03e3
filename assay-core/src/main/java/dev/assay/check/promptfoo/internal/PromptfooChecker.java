package dev.assay.check.promptfoo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.Verdict;
import dev.assay.check.judge.Judge;
import dev.assay.check.promptfoo.internal.Judged.Grading;
import dev.assay.check.promptfoo.internal.Judged.Unjudged;
import dev.assay.transcript.TranscriptEvent;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Judges one promptfoo assertion of a case's answer as promptfoo's runAssertion does (src/assertions/index.ts): the
 * type's handler, {@code not-} inverting it, a weight of 0 passing it, an {@code assert-set} aggregating its assertions
 * as promptfoo's AssertionsResult does. The verdict passes or fails as promptfoo's result does, scores promptfoo's
 * score (held to [0, 1]; the detail keeps it as it was), and explains itself with promptfoo's reason; its detail is the
 * result ({@code pass}, {@code score}, {@code reason}, {@code assertion}, {@code metric}, {@code componentResults}).
 * Thread-safe.
 *
 * @param assertion the assertion, validated
 * @param judge the judge of the model-graded types for a context; empty when no judge model is configured
 * @param scripts runs the {@code javascript} and {@code python} assertions
 */
record PromptfooChecker(Assertion assertion, Optional<Function<CheckContext, Judge>> judge, ScriptAssertions scripts)
        implements Checker {

    @Override
    public Verdict check(CheckContext context) throws InterruptedException {
        return switch (judged(assertion, context)) {
            case Unjudged unjudged ->
                new Verdict(
                        unjudged.status(),
                        0,
                        unjudged.problem().type(),
                        unjudged.problem().message(),
                        null);
            case Grading grading -> {
                Grading reported = grading.withMetric(assertion.metric());
                ObjectNode detail = reported.toJson();
                detail.put("weight", assertion.weight());
                double score = Double.isFinite(grading.score()) ? Math.max(0, Math.min(1, grading.score())) : 0;
                yield grading.pass()
                        ? new Verdict(Verdict.Status.PASSED, score, null, grading.reason(), detail)
                        : new Verdict(Verdict.Status.FAILED, score, "promptfoo.failed", grading.reason(), detail);
            }
        };
    }

    private Judged judged(Assertion assertion, CheckContext context) throws InterruptedException {
        if (assertion.base().equals("assert-set")) {
            return assertSet(assertion, context);
        }
        Judged judged = handled(assertion, context);
        // runAssertion: an assertion of weight 0 passes whatever its handler found.
        return assertion.weight() == 0 && judged instanceof Grading grading ? grading.withPass(true) : judged;
    }

    private Judged handled(Assertion assertion, CheckContext context) throws InterruptedException {
        String output = output(context);
        return switch (assertion.base()) {
            case "javascript", "python" -> scripts.grade(assertion, output, scriptContext(assertion, context));
            case "llm-rubric", "model-graded-closedqa" -> {
                if (judge.isEmpty()) {
                    yield new Unjudged(
                            Verdict.Status.SKIPPED,
                            Problem.of("judge.not_configured", "no judge model is configured (assay.yaml 'judges')"));
                }
                Judge asked = judge.get().apply(context);
                yield assertion.base().equals("llm-rubric")
                        ? RubricAssertions.rubric(asked, assertion, output)
                        : RubricAssertions.closedQa(asked, assertion, prompt(context), output);
            }
            case "latency" -> latency(assertion, context);
            case "cost" -> cost(assertion, context);
            case "is-valid-openai-tools-call" -> toolsCall(assertion, context);
            default -> TextAssertions.grade(assertion, output);
        };
    }

    /**
     * AssertionsResult of a set: the weighted mean score, failed with the reason of its last failing assertion, or by
     * its threshold on the score when it has one; its results listed as component results.
     */
    private Judged assertSet(Assertion set, CheckContext context) throws InterruptedException {
        var components = new ArrayList<Grading>();
        double total = 0;
        double totalWeight = 0;
        String failedReason = null;
        for (Assertion child : set.children()) {
            Judged judged = judged(child, context);
            if (judged instanceof Unjudged unjudged) {
                return unjudged;
            }
            Grading grading = ((Grading) judged).withMetric(child.metric());
            components.add(grading);
            total += grading.score() * child.weight();
            totalWeight += child.weight();
            if (!grading.pass()) {
                failedReason = grading.reason();
            }
        }
        double score = totalWeight > 0 ? total / totalWeight : 0;
        boolean pass = failedReason == null;
        String reason = pass ? "All assertions passed" : failedReason;
        if (set.threshold() != null) {
            pass = score >= set.threshold();
            reason = "Aggregate score "
                    + BigDecimal.valueOf(score)
                            .setScale(2, RoundingMode.HALF_UP)
                            .toPlainString()
                    + (pass ? " ≥ " : " < ") + JsValues.number(set.threshold()) + " threshold";
        }
        ObjectNode summary = Json.object();
        summary.put("type", set.type());
        return new Grading(pass, score, reason, summary, null, components);
    }

    private static Judged latency(Assertion assertion, CheckContext context) {
        if (context.subjectTime() == null) {
            // promptfoo throws where it has no latency (a cached answer); here that is an answer judged outside a run.
            return new Unjudged(
                    Verdict.Status.ERROR,
                    Problem.of(
                            "promptfoo.latency_unavailable",
                            "the latency assertion needs the time the answer took, known only inside a run"));
        }
        long millis = context.subjectTime().toMillis();
        boolean pass = millis <= assertion.threshold() != assertion.inverse();
        return Grading.of(
                pass,
                "Latency " + millis + "ms is " + (assertion.inverse() ? "less than or equal to" : "greater than")
                        + " threshold " + JsValues.number(assertion.threshold()) + "ms",
                assertion);
    }

    /** cost (src/assertions/cost.ts): what the answer's model calls cost, in US dollars, at most the threshold. */
    private static Judged cost(Assertion assertion, CheckContext context) {
        if (context.subjectCostUsd() == null) {
            // promptfoo throws for a provider that returns no cost; here that is a model the price table lacks.
            return new Unjudged(
                    Verdict.Status.ERROR,
                    Problem.of(
                            "promptfoo.cost_unavailable",
                            "the cost assertion needs the price of the model that answered: add it to assay.yaml "
                                    + "'prices' (docs/cost.md)"));
        }
        double usd = context.subjectCostUsd();
        boolean pass = usd <= assertion.threshold() != assertion.inverse();
        return Grading.of(
                pass,
                "Cost " + new BigDecimal(usd).round(new MathContext(2)).toPlainString() + " is "
                        + (assertion.inverse() ? "less than or equal to" : "greater than") + " threshold "
                        + JsValues.number(assertion.threshold()),
                assertion);
    }

    /**
     * is-valid-openai-tools-call (src/assertions/openai.ts): the answer's tool calls, each to a function the case
     * declares ({@code tools}, in OpenAI's format, as the provider's {@code config.tools} is), with arguments valid
     * against its parameters.
     */
    private static Grading toolsCall(Assertion assertion, CheckContext context) {
        List<TranscriptEvent.ToolCall> calls =
                context.transcript() == null ? List.of() : context.transcript().toolCalls();
        if (calls.isEmpty()) {
            return new Grading(
                    false,
                    0,
                    "OpenAI did not return a valid-looking tools response: "
                            + JsValues.string(Json.tree(output(context))),
                    assertion.summary(),
                    null,
                    List.of());
        }
        JsonNode tools = context.evalCase() == null
                ? Json.MAPPER.missingNode()
                : context.evalCase().attributes().path("tools");
        if (!tools.isArray() || tools.isEmpty()) {
            return new Grading(
                    false,
                    0,
                    "No tools configured in provider, but output contains tool calls",
                    assertion.summary(),
                    null,
                    List.of());
        }
        for (TranscriptEvent.ToolCall call : calls) {
            JsonNode parameters = null;
            for (JsonNode tool : tools) {
                if (tool.path("type").asText().equals("function")
                        && tool.path("function").path("name").asText().equals(call.rawName())) {
                    parameters = tool.path("function").get("parameters");
                    break;
                }
            }
            String failure = null;
            if (parameters == null) {
                failure = "Called \"" + call.rawName() + "\", but there is no function with that name";
            } else {
                Optional<Schema> schema = JsonSchemas.compile(parameters);
                List<Error> errors = schema.map(compiled -> compiled.validate(call.arguments()))
                        .orElse(List.of());
                if (schema.isEmpty()) {
                    failure = "The parameters of \"" + call.rawName() + "\" are no JSON schema";
                } else if (!errors.isEmpty()) {
                    failure = "Call to \"" + call.rawName() + "\" does not match schema: "
                            + JsonSchemas.errorsText(errors);
                }
            }
            if (failure != null) {
                return new Grading(false, 0, failure, assertion.summary(), null, List.of());
            }
        }
        return Grading.of(true, "", assertion);
    }

    /** {@return the output promptfoo's assertions see: what the model wrote last, as it wrote it} */
    static String output(CheckContext context) {
        String raw = context.transcript() == null ? "" : context.transcript().rawFinalText();
        if (!raw.isEmpty()) {
            return raw;
        }
        return context.finalAnswer() == null ? "" : context.finalAnswer();
    }

    /** {@return the prompt the model was given: the loader's rendered prompt, else the case's} */
    static String prompt(CheckContext context) {
        if (context.evalCase() == null) {
            return "";
        }
        JsonNode rendered = context.evalCase().attributes().path("prompt_rendered");
        return rendered.isTextual() ? rendered.asText() : context.evalCase().prompt();
    }

    /** {@return {@code context} as promptfoo gives it to code: prompt, vars, test (its vars), config when given} */
    private static ObjectNode scriptContext(Assertion assertion, CheckContext context) {
        JsonNode vars = context.evalCase() == null
                ? Json.object()
                : context.evalCase().attributes().path("vars");
        if (!vars.isObject()) {
            vars = Json.object();
        }
        ObjectNode json = Json.object();
        json.put("prompt", prompt(context));
        json.set("vars", vars);
        json.putObject("test").set("vars", vars);
        if (!assertion.config().isMissingNode() && !assertion.config().isNull()) {
            json.set("config", assertion.config());
        }
        return json;
    }
}
