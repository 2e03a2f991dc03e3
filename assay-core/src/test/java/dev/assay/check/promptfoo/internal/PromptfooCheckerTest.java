package dev.assay.check.promptfoo.internal;

import static dev.assay.check.promptfoo.PromptfooChecks.judge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.Verdict;
import dev.assay.check.promptfoo.PromptfooAssertions;
import dev.assay.check.promptfoo.PromptfooChecks;
import dev.assay.transcript.TranscriptEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The promptfoo checker's text assertions, each against what promptfoo 0.121.20 does: the handlers in
 * src/assertions/contains.ts, equals.ts, startsWith.ts, regex.ts, levenshtein.ts, json.ts, latency.ts, openai.ts, the
 * inversion and weight rules of runAssertion (src/assertions/index.ts) and the aggregation of AssertionsResult
 * (src/assertions/assertionsResult.ts).
 */
class PromptfooCheckerTest {
    private static final PromptfooCheckerFactory FACTORY = new PromptfooCheckerFactory();

    private static Verdict judged(String assertion, String output) throws InterruptedException {
        return judge(FACTORY, assertion, output);
    }

    private static boolean passes(String assertion, String output) throws InterruptedException {
        Verdict verdict = judged(assertion, output);
        assertThat(verdict.detail().path("pass").asBoolean()).isEqualTo(verdict.status() == Verdict.Status.PASSED);
        return verdict.status() == Verdict.Status.PASSED;
    }

    @Test
    void the_checker_is_registered_by_name_among_the_builtins() {
        assertThat(CheckerRegistry.builtins().names()).contains("promptfoo");
    }

    @Test
    void equals_compares_text_exactly_and_its_not_form_inverts() throws InterruptedException {
        assertThat(passes("{\"type\": \"equals\", \"value\": \"Paris\"}", "Paris"))
                .isTrue();
        assertThat(passes("{\"type\": \"equals\", \"value\": \"Paris\"}", "Paris "))
                .isFalse();
        assertThat(passes("{\"type\": \"not-equals\", \"value\": \"Paris\"}", "Lyon"))
                .isTrue();
        // String(42) === output: a number value is compared as its text.
        assertThat(passes("{\"type\": \"equals\", \"value\": 42}", "42")).isTrue();
    }

    @Test
    void equals_with_an_object_compares_the_parsed_output_whatever_its_key_order() throws InterruptedException {
        String assertion = "{\"type\": \"equals\", \"value\": {\"a\": 1, \"b\": [true, null]}}";
        assertThat(passes(assertion, "{\"b\": [true, null], \"a\": 1.0}")).isTrue();
        assertThat(passes(assertion, "{\"a\": 1}")).isFalse();
        // Output that is no JSON fails equals and passes not-equals (pass = inverse).
        assertThat(passes(assertion, "not json")).isFalse();
        assertThat(passes("{\"type\": \"not-equals\", \"value\": {\"a\": 1}}", "not json"))
                .isTrue();
    }

    @Test
    void a_failed_equals_reports_promptfoos_reason_and_score() throws InterruptedException {
        Verdict verdict = judged("{\"type\": \"equals\", \"value\": \"Paris\"}", "Lyon");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.errorType()).isEqualTo("promptfoo.failed");
        assertThat(verdict.message()).isEqualTo("Expected output \"Lyon\" to equal \"Paris\"");
        assertThat(verdict.detail().path("score").asDouble()).isZero();
        assertThat(verdict.detail().path("assertion").path("type").asText()).isEqualTo("equals");
        assertThat(verdict.detail().path("assertion").path("value").asText()).isEqualTo("Paris");
    }

    @Test
    void contains_and_icontains_differ_only_in_case() throws InterruptedException {
        assertThat(passes("{\"type\": \"contains\", \"value\": \"paris\"}", "Paris is big"))
                .isFalse();
        assertThat(passes("{\"type\": \"icontains\", \"value\": \"paris\"}", "Paris is big"))
                .isTrue();
        assertThat(passes("{\"type\": \"not-icontains\", \"value\": \"PARIS\"}", "Paris is big"))
                .isFalse();
        assertThat(passes("{\"type\": \"contains\", \"value\": 1.5}", "costs 1.5 euros"))
                .isTrue();
    }

    @Test
    void contains_any_and_all_read_a_list_or_comma_separated_text_with_quotes() throws InterruptedException {
        assertThat(passes("{\"type\": \"contains-any\", \"value\": [\"Rome\", \"Paris\"]}", "Paris"))
                .isTrue();
        assertThat(passes("{\"type\": \"contains-any\", \"value\": \"Rome, Paris\"}", "Paris"))
                .isTrue();
        assertThat(passes("{\"type\": \"contains-all\", \"value\": \"Rome, Paris\"}", "Paris"))
                .isFalse();
        assertThat(passes("{\"type\": \"contains-all\", \"value\": \"\\\"a, b\\\", c\"}", "a, b and c"))
                .isTrue();
        assertThat(passes("{\"type\": \"contains-all\", \"value\": \"\\\"a, b\\\", c\"}", "a and b and c"))
                .isFalse();
        assertThat(passes("{\"type\": \"icontains-any\", \"value\": [\"ROME\", \"PARIS\"]}", "paris"))
                .isTrue();
        assertThat(passes("{\"type\": \"icontains-all\", \"value\": [\"A\", \"B\"]}", "a b"))
                .isTrue();
        assertThat(passes("{\"type\": \"not-contains-any\", \"value\": [\"x\", \"y\"]}", "abc"))
                .isTrue();
        assertThat(passes("{\"type\": \"not-contains-all\", \"value\": [\"a\", \"y\"]}", "abc"))
                .isTrue();
    }

    @Test
    void a_failed_contains_all_names_what_is_missing() throws InterruptedException {
        Verdict verdict = judged("{\"type\": \"contains-all\", \"value\": [\"a\", \"x\", \"y\"]}", "abc");
        assertThat(verdict.message()).isEqualTo("Expected output to contain all of [a, x, y]. Missing: [x, y]");
    }

    @Test
    void comma_separated_values_follow_promptfoos_quoting_rules() {
        assertThat(TextAssertions.commaSeparated(" a ,, b,\"c \"\"d\"\"\" , \"e\\\\\" "))
                .contains(List.of("a", "b", "c \"d\"", "e\\"));
        assertThat(TextAssertions.commaSeparated("\"open, b")).isEmpty();
        assertThat(TextAssertions.commaSeparated("\"a\" b, c")).isEmpty();
    }

    @Test
    void starts_with_and_its_not_form() throws InterruptedException {
        assertThat(passes("{\"type\": \"starts-with\", \"value\": \"Yes\"}", "Yes, indeed"))
                .isTrue();
        assertThat(passes("{\"type\": \"starts-with\", \"value\": \"Yes\"}", " Yes"))
                .isFalse();
        assertThat(passes("{\"type\": \"not-starts-with\", \"value\": \"No\"}", "Yes"))
                .isTrue();
    }

    @Test
    void regex_searches_as_javascript_does_with_dollar_at_the_very_end() throws InterruptedException {
        assertThat(passes("{\"type\": \"regex\", \"value\": \"\\\\d{3}-\\\\d{4}\"}", "call 555-1234 now"))
                .isTrue();
        // JavaScript's $ (no m flag) does not match before a final line break; Java's does unless translated.
        assertThat(passes("{\"type\": \"regex\", \"value\": \"done$\"}", "done\n"))
                .isFalse();
        assertThat(passes("{\"type\": \"regex\", \"value\": \"done$\"}", "done"))
                .isTrue();
        // A brace that opens no quantifier is a literal in JavaScript.
        assertThat(passes("{\"type\": \"regex\", \"value\": \"{name}\"}", "hello {name}"))
                .isTrue();
        assertThat(passes("{\"type\": \"not-regex\", \"value\": \"^[0-9]+$\"}", "12a"))
                .isTrue();
    }

    @Test
    void an_invalid_regex_fails_with_promptfoos_reason_even_in_its_not_form() throws InterruptedException {
        Verdict verdict = judged("{\"type\": \"not-regex\", \"value\": \"(unclosed\"}", "anything");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.message()).startsWith("Invalid regex pattern: ");
    }

    @Test
    void levenshtein_passes_up_to_its_threshold_which_defaults_to_five() throws InterruptedException {
        assertThat(passes("{\"type\": \"levenshtein\", \"value\": \"kitten\"}", "sitting"))
                .isTrue(); // distance 3
        assertThat(passes("{\"type\": \"levenshtein\", \"value\": \"kitten\", \"threshold\": 3}", "sitting"))
                .isTrue();
        assertThat(passes("{\"type\": \"levenshtein\", \"value\": \"kitten\", \"threshold\": 2}", "sitting"))
                .isFalse();
        assertThat(passes("{\"type\": \"not-levenshtein\", \"value\": \"kitten\", \"threshold\": 2}", "sitting"))
                .isTrue();
        assertThat(judged("{\"type\": \"levenshtein\", \"value\": \"kitten\", \"threshold\": 2}", "sitting")
                        .message())
                .isEqualTo("Levenshtein distance 3 is greater than threshold 2");
    }

    @Test
    void is_json_parses_strictly_and_validates_a_schema_given_as_object_or_yaml_text() throws InterruptedException {
        assertThat(passes("{\"type\": \"is-json\"}", "{\"a\": 1}")).isTrue();
        assertThat(passes("{\"type\": \"is-json\"}", "{\"a\": 1} trailing")).isFalse();
        assertThat(passes("{\"type\": \"not-is-json\"}", "plain text")).isTrue();
        String schema = "{\"type\": \"object\", \"required\": [\"name\"], "
                + "\"properties\": {\"name\": {\"type\": \"string\"}}}";
        assertThat(passes("{\"type\": \"is-json\", \"value\": " + schema + "}", "{\"name\": \"x\"}"))
                .isTrue();
        assertThat(passes("{\"type\": \"is-json\", \"value\": " + schema + "}", "{\"name\": 3}"))
                .isFalse();
        String yaml = "\"type: object\\nrequired: [name]\\n\"";
        assertThat(passes("{\"type\": \"is-json\", \"value\": " + yaml + "}", "{}"))
                .isFalse();
        assertThat(passes("{\"type\": \"not-is-json\", \"value\": " + yaml + "}", "{}"))
                .isTrue();
        assertThat(judged("{\"type\": \"is-json\", \"value\": " + yaml + "}", "{}")
                        .message())
                .startsWith("JSON does not conform to the provided schema. Errors: ");
    }

    @Test
    void contains_json_finds_an_object_inside_text_and_validates_it() throws InterruptedException {
        assertThat(passes("{\"type\": \"contains-json\"}", "Here: {\"a\": {\"b\": 2}} done"))
                .isTrue();
        assertThat(passes("{\"type\": \"contains-json\"}", "no object here")).isFalse();
        assertThat(passes("{\"type\": \"not-contains-json\"}", "no object here"))
                .isTrue();
        String schema = "{\"type\": \"object\", \"required\": [\"b\"]}";
        assertThat(passes("{\"type\": \"contains-json\", \"value\": " + schema + "}", "x {\"a\": 1} y {\"b\": 1}"))
                .isTrue();
        assertThat(passes("{\"type\": \"contains-json\", \"value\": " + schema + "}", "x {\"a\": 1}"))
                .isFalse();
    }

    @Test
    void latency_passes_at_its_threshold_in_milliseconds_and_not_above() throws InterruptedException {
        String assertion = "{\"type\": \"latency\", \"threshold\": 500}";
        assertThat(judge(FACTORY, assertion, "x", Json.object(), Duration.ofMillis(500), List.of())
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        Verdict slow = judge(FACTORY, assertion, "x", Json.object(), Duration.ofMillis(501), List.of());
        assertThat(slow.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(slow.message()).isEqualTo("Latency 501ms is greater than threshold 500ms");
        assertThat(judge(
                                FACTORY,
                                "{\"type\": \"not-latency\", \"threshold\": 500}",
                                "x",
                                Json.object(),
                                Duration.ofMillis(501),
                                List.of())
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void latency_outside_a_run_is_an_error_not_a_verdict() throws InterruptedException {
        Verdict verdict = judged("{\"type\": \"latency\", \"threshold\": 500}", "x");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.ERROR);
        assertThat(verdict.errorType()).isEqualTo("promptfoo.latency_unavailable");
    }

    private static Verdict costing(String assertion, Double usd) throws InterruptedException {
        var context = dev.assay.check.CheckContext.of(
                        PromptfooChecks.promptfooCase(assertion, Json.object()),
                        new dev.assay.transcript.Transcript(List.of()),
                        null)
                .withSubjectCost(usd);
        return FACTORY.create(Json.object().set("assertion", Json.parse(assertion)))
                .check(context);
    }

    @Test
    void cost_passes_at_its_threshold_in_dollars_and_not_above_and_its_not_form_inverts_it()
            throws InterruptedException {
        String assertion = "{\"type\": \"cost\", \"threshold\": 0.001}";
        assertThat(costing(assertion, 0.001).status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(costing(assertion, 0.0).status()).isEqualTo(Verdict.Status.PASSED);
        Verdict dear = costing(assertion, 0.0042);
        assertThat(dear.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(dear.message()).isEqualTo("Cost 0.0042 is greater than threshold 0.001");
        assertThat(dear.detail().path("score").asDouble()).isZero();
        String inverted = "{\"type\": \"not-cost\", \"threshold\": 0.001}";
        assertThat(costing(inverted, 0.0042).status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(costing(inverted, 0.001).status()).isEqualTo(Verdict.Status.FAILED);
    }

    @Test
    void cost_without_a_price_is_an_error_not_a_verdict() throws InterruptedException {
        Verdict unpriced = costing("{\"type\": \"cost\", \"threshold\": 0.001}", null);
        assertThat(unpriced.status()).isEqualTo(Verdict.Status.ERROR);
        assertThat(unpriced.errorType()).isEqualTo("promptfoo.cost_unavailable");
        assertThat(PromptfooAssertions.supports("not-cost")).isTrue();
    }

    @Test
    void a_tools_call_passes_when_every_call_matches_a_declared_function() throws InterruptedException {
        ObjectNode attributes = Json.object();
        attributes.set(
                "tools",
                Json.parse("[{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"parameters\": "
                        + "{\"type\": \"object\", \"required\": [\"city\"], "
                        + "\"properties\": {\"city\": {\"type\": \"string\"}}}}}]"));
        String assertion = "{\"type\": \"is-valid-openai-tools-call\"}";
        var good = new TranscriptEvent.ToolCall(
                Instant.EPOCH, "c1", "get_weather", "get_weather", Json.parse("{\"city\": \"Paris\"}"));
        var bad = new TranscriptEvent.ToolCall(
                Instant.EPOCH, "c2", "get_weather", "get_weather", Json.parse("{\"town\": \"Paris\"}"));
        var unknown = new TranscriptEvent.ToolCall(Instant.EPOCH, "c3", "book", "book", Json.object());
        assertThat(judge(FACTORY, assertion, "", attributes, null, List.of(good))
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        Verdict invalid = judge(FACTORY, assertion, "", attributes, null, List.of(good, bad));
        assertThat(invalid.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(invalid.message()).startsWith("Call to \"get_weather\" does not match schema");
        assertThat(judge(FACTORY, assertion, "", attributes, null, List.of(unknown))
                        .message())
                .isEqualTo("Called \"book\", but there is no function with that name");
        assertThat(judge(FACTORY, assertion, "just text", attributes, null, List.of())
                        .status())
                .isEqualTo(Verdict.Status.FAILED);
        assertThat(judge(FACTORY, assertion, "", Json.object(), null, List.of(good))
                        .message())
                .isEqualTo("No tools configured in provider, but output contains tool calls");
    }

    @Test
    void weight_zero_passes_whatever_the_assertion_found() throws InterruptedException {
        Verdict verdict = judged("{\"type\": \"equals\", \"value\": \"a\", \"weight\": 0}", "b");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(verdict.detail().path("score").asDouble()).isZero();
        assertThat(verdict.detail().path("weight").asDouble()).isZero();
    }

    @Test
    void metric_is_reported_in_the_detail() throws InterruptedException {
        Verdict verdict = judged("{\"type\": \"contains\", \"value\": \"a\", \"metric\": \"accuracy\"}", "abc");
        assertThat(verdict.detail().path("metric").asText()).isEqualTo("accuracy");
    }

    @Test
    void an_assert_set_fails_with_its_last_failing_reason_and_scores_the_weighted_mean() throws InterruptedException {
        String set = "{\"type\": \"assert-set\", \"metric\": \"m\", \"assert\": ["
                + "{\"type\": \"contains\", \"value\": \"a\", \"weight\": 3},"
                + "{\"type\": \"contains\", \"value\": \"x\"}]}";
        Verdict verdict = judged(set, "abc");
        assertThat(verdict.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(verdict.score()).isEqualTo(0.75);
        assertThat(verdict.message()).isEqualTo("Expected output to contain \"x\"");
        assertThat(verdict.detail().path("componentResults")).hasSize(2);
        assertThat(verdict.detail().path("componentResults").get(0).path("pass").asBoolean())
                .isTrue();
        assertThat(verdict.detail().path("metric").asText()).isEqualTo("m");
    }

    @Test
    void an_assert_set_with_a_threshold_passes_when_its_score_reaches_it() throws InterruptedException {
        String set = "{\"type\": \"assert-set\", \"threshold\": %s, \"assert\": ["
                + "{\"type\": \"contains\", \"value\": \"a\"}, {\"type\": \"contains\", \"value\": \"x\"}]}";
        Verdict reached = judged(set.formatted("0.5"), "abc");
        assertThat(reached.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(reached.message()).isEqualTo("Aggregate score 0.50 ≥ 0.5 threshold");
        Verdict missed = judged(set.formatted("0.51"), "abc");
        assertThat(missed.status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(missed.message()).isEqualTo("Aggregate score 0.50 < 0.51 threshold");
    }

    @Test
    void an_unsupported_type_is_refused_when_the_suite_loads_naming_the_type() {
        assertThat(PromptfooAssertions.supports("contains")).isTrue();
        assertThat(PromptfooAssertions.supports("not-llm-rubric")).isTrue();
        assertThat(PromptfooAssertions.supports("similar")).isFalse();
        assertThat(PromptfooAssertions.supports("not-assert-set")).isFalse();
        assertThatThrownBy(() -> judged("{\"type\": \"similar\", \"value\": \"x\"}", "x"))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo(PromptfooAssertions.UNSUPPORTED);
                    assertThat(e.problem().message()).contains("similar");
                });
        assertThat(PromptfooAssertions.unsupportedReason(
                        Json.parse("{\"type\": \"contains\", \"value\": \"x\", \"transform\": \"output.trim()\"}")))
                .hasValueSatisfying(reason -> assertThat(reason).contains("'transform'", "contains"));
        assertThat(PromptfooAssertions.unsupportedReason(
                        Json.parse("{\"type\": \"assert-set\", \"assert\": [{\"type\": \"bleu\", \"value\": \"x\"}]}")))
                .hasValueSatisfying(reason -> assertThat(reason).contains("bleu"));
    }

    @Test
    void a_malformed_assertion_is_refused_when_the_suite_loads() {
        for (String malformed : List.of(
                "{\"type\": \"contains\"}",
                "{\"type\": \"contains\", \"value\": \"\"}",
                "{\"type\": \"regex\", \"value\": 3}",
                "{\"type\": \"latency\"}",
                "{\"type\": \"cost\"}",
                "{\"type\": \"is-json\", \"value\": 3}",
                "{\"type\": \"contains-any\", \"value\": \"\\\"unclosed\"}",
                "{\"type\": \"assert-set\", \"assert\": []}",
                "{\"type\": \"equals\", \"value\": \"a\", \"weight\": -1}")) {
            assertThatThrownBy(() -> judged(malformed, "x"))
                    .as(malformed)
                    .isInstanceOfSatisfying(
                            AssayException.class,
                            e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
        }
    }

    @Test
    void javascript_values_are_written_as_javascript_writes_them() {
        assertThat(JsValues.number(5)).isEqualTo("5");
        assertThat(JsValues.number(1.5)).isEqualTo("1.5");
        assertThat(JsValues.number(1e-7)).isEqualTo("1e-7");
        assertThat(JsValues.number(1e21)).isEqualTo("1e+21");
        assertThat(JsValues.string(Json.parse("[1, \"a\", null]"))).isEqualTo("1,a,");
    }
}
