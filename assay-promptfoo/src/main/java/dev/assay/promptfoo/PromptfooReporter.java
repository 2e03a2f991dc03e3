package dev.assay.promptfoo;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.report.Reporter;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.run.EvalSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A promptfoo config's run in the shape {@code promptfoo eval -o results.json} writes ({@code promptfoo-results.json}):
 * {@code evalId}, {@code results} ({@code version} 3, {@code timestamp}, {@code prompts}, {@code results[]} with
 * {@code vars}, {@code prompt}, {@code provider}, {@code response}, {@code success}, {@code score},
 * {@code gradingResult.componentResults[]}, and {@code stats}), {@code config} and {@code shareableUrl}, so that
 * scripts and dashboards written for promptfoo read it. Written into every output directory of a promptfoo config's
 * run; asked by name, for any run (whose cases then have no vars). A service of assay-promptfoo. Thread-safe
 * (stateless).
 */
public final class PromptfooReporter implements Reporter {
    /** promptfoo's {@code ResultFailureReason}: none, an assertion failed, an error. */
    private static final int NONE = 0;

    private static final int ASSERT = 1;
    private static final int ERROR = 2;

    @Override
    public String name() {
        return "promptfoo";
    }

    @Override
    public String fileName() {
        return "promptfoo-results.json";
    }

    @Override
    public boolean writesFor(RunReport report) {
        return EvalSpec.of(report.run()).subject().sut() instanceof EvalSpec.Plugin plugin
                && plugin.name().equals(PromptfooSubjects.NAME);
    }

    @Override
    public void write(RunReport report, OutputStream out) throws IOException {
        Run run = report.run();
        Map<String, Case> cases = report.cases();
        try (JsonGenerator json = Json.MAPPER.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("evalId", run.runId());
            json.writeObjectFieldStart("results");
            json.writeNumberField("version", 3);
            json.writeStringField(
                    "timestamp",
                    run.startedAt() == null ? null : run.startedAt().toString());
            json.writeFieldName("prompts");
            json.writeTree(prompts(cases));
            int successes = 0;
            int failures = 0;
            int errors = 0;
            json.writeArrayFieldStart("results");
            for (Item item : report.items()) {
                Case evalCase = cases.get(item.caseId());
                json.writeTree(result(item, evalCase));
                switch (item.status()) {
                    case PASSED -> successes++;
                    case FAILED, PARTIAL -> failures++;
                    default -> errors++;
                }
            }
            json.writeEndArray();
            json.writeObjectFieldStart("stats");
            json.writeNumberField("successes", successes);
            json.writeNumberField("failures", failures);
            json.writeNumberField("errors", errors);
            json.writeEndObject();
            json.writeEndObject();
            json.writeObjectFieldStart("config");
            json.writeStringField("description", run.caseSet());
            json.writeEndObject();
            json.writeNullField("shareableUrl");
            json.writeEndObject();
        }
    }

    /** {@return promptfoo's columns: a prompt per provider and prompt, in the matrix's order} */
    private static ArrayNode prompts(Map<String, Case> cases) {
        var columns = new LinkedHashMap<Integer, ObjectNode>();
        cases.values().forEach(evalCase -> {
            JsonNode promptfoo = evalCase.attributes().path("promptfoo");
            int column = promptfoo.path("prompt_index").asInt(-1);
            if (column >= 0 && !columns.containsKey(column)) {
                ObjectNode prompt = Json.object();
                prompt.put("raw", promptfoo.path("prompt_raw").asText());
                prompt.put("label", promptfoo.path("prompt_label").asText());
                prompt.put("provider", evalCase.subjectLabel());
                columns.put(column, prompt);
            }
        });
        ArrayNode out = Json.MAPPER.createArrayNode();
        columns.keySet().stream().sorted().forEach(column -> out.add(columns.get(column)));
        return out;
    }

    /** {@return one row of promptfoo's results} */
    static ObjectNode result(Item item, Case evalCase) {
        JsonNode promptfoo =
                evalCase == null ? Json.object() : evalCase.attributes().path("promptfoo");
        ObjectNode row = Json.object();
        row.put("id", item.caseId());
        row.put("promptIdx", promptfoo.path("prompt_index").asInt(0));
        row.put("testIdx", promptfoo.path("test_index").asInt(item.seq()));
        ObjectNode testCase = row.putObject("testCase");
        if (!promptfoo.path("description").asText("").isEmpty()) {
            testCase.put("description", promptfoo.path("description").asText());
        }
        testCase.set(
                "vars", evalCase == null ? Json.object() : evalCase.attributes().path("vars"));
        testCase.set(
                "assert",
                promptfoo.path("assert").isArray() ? promptfoo.path("assert") : Json.MAPPER.createArrayNode());
        testCase.set("options", promptfoo.path("options").isObject() ? promptfoo.path("options") : Json.object());
        ObjectNode provider = row.putObject("provider");
        provider.put("id", promptfoo.path("provider_id").asText(""));
        provider.put("label", promptfoo.path("provider_label").asText(""));
        ObjectNode prompt = row.putObject("prompt");
        prompt.put("raw", item.prompt());
        prompt.put("label", promptfoo.path("prompt_label").asText(""));
        row.set("vars", evalCase == null ? Json.object() : evalCase.attributes().path("vars"));
        ObjectNode response = row.putObject("response");
        response.put("output", item.finalAnswer());
        boolean success = item.status() == ItemStatus.PASSED;
        boolean judged = item.status() == ItemStatus.PASSED
                || item.status() == ItemStatus.FAILED
                || item.status() == ItemStatus.PARTIAL;
        if (!judged && item.error() != null) {
            row.put("error", item.error().message());
        }
        row.put("failureReason", success ? NONE : judged ? ASSERT : ERROR);
        row.put("success", success);
        row.put("score", item.score());
        row.put("latencyMs", Math.round(item.elapsedS() * 1000));
        row.set("gradingResult", grading(item, success, promptfoo.has("threshold")));
        row.set("namedScores", Json.object());
        return row;
    }

    /**
     * {@return the test's grading: pass, score, reason and a component result per assertion}, listed as promptfoo lists
     * them: an {@code assert-set}'s result followed by its assertions' results, and a test {@code threshold}'s
     * assertions each on its own (Assay judges them as one set holding them all, {@link PromptfooCases#checks})
     */
    private static ObjectNode grading(Item item, boolean success, boolean testThreshold) {
        ObjectNode grading = Json.object();
        grading.put("pass", success);
        grading.put("score", item.score());
        ArrayNode components = Json.MAPPER.createArrayNode();
        StringBuilder reasons = new StringBuilder();
        JsonNode checks = item.checkerDetail() == null
                ? Json.MAPPER.createArrayNode()
                : item.checkerDetail().path("checks");
        for (JsonNode check : checks) {
            ObjectNode component = component(check);
            if (testThreshold
                    && checks.size() == 1
                    && component.path("componentResults").isArray()) {
                component.path("componentResults").forEach(inner -> listed((ObjectNode) inner.deepCopy(), components));
            } else {
                listed(component, components);
            }
            boolean pass = component.path("pass").asBoolean();
            String reason = component.path("reason").asText("");
            if (!pass && !reason.isEmpty()) {
                reasons.append(reasons.isEmpty() ? "" : "; ").append(reason);
            }
        }
        grading.put(
                "reason",
                success
                        ? "All assertions passed"
                        : reasons.isEmpty() && item.error() != null
                                ? item.error().message()
                                : reasons.toString());
        grading.set("componentResults", components);
        return grading;
    }

    /** {@return one check's component result: pass, score, reason, assertion, and a set's componentResults} */
    private static ObjectNode component(JsonNode check) {
        ObjectNode component = Json.object();
        JsonNode detail = check.path("detail");
        boolean pass = detail.path("pass").isBoolean()
                ? detail.path("pass").asBoolean()
                : check.path("status").asText().equals("passed");
        component.put("pass", pass);
        component.put(
                "score",
                detail.path("score").isNumber()
                        ? detail.path("score").asDouble()
                        : check.path("score").asDouble());
        String reason = detail.path("reason").isTextual()
                ? detail.path("reason").asText()
                : check.path("message").asText("");
        component.put("reason", reason.isEmpty() && pass ? "Assertion passed" : reason);
        component.set("assertion", check.path("expected").path("assertion"));
        if (detail.path("componentResults").isArray()) {
            component.set("componentResults", detail.path("componentResults"));
        }
        return component;
    }

    /** Lists a component result, then, as promptfoo does after a set's, each of its own component results. */
    private static void listed(ObjectNode component, ArrayNode components) {
        components.add(component);
        component.path("componentResults").forEach(inner -> components.add(inner.deepCopy()));
    }
}
