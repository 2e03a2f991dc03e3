package dev.assay.check;

import static dev.assay.check.Judge.answer;
import static dev.assay.check.Judge.call;
import static dev.assay.check.Judge.judge;
import static dev.assay.check.Judge.transcript;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Plugins;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.sandbox.UnsandboxedSandbox;
import dev.assay.tools.Workspace;
import dev.assay.tools.environment.EnvironmentLauncher;
import dev.assay.tools.environment.EnvironmentSpec;
import dev.assay.tools.environment.Environments;
import dev.assay.tools.environment.TrialEnvironment;
import dev.assay.transcript.Transcript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** state_matches (with a literal state), actions_called and told_user, by τ²-bench's semantics. */
class EnvironmentCheckersTest {
    @TempDir
    Path workspace;

    @Test
    void actions_called_compares_only_the_listed_arguments_of_a_call_of_the_same_tool() {
        var transcript = transcript(
                call("c1", "get_order", "{\"order_id\": \"O-1\"}"),
                call(
                        "c2",
                        "cancel_order",
                        "{\"order_id\": \"O-1\", \"reason\": \"no longer needed\", \"note\": \"x\"}"));

        assertThat(judge(
                                "actions_called",
                                "{\"actions\": [{\"name\": \"cancel_order\", \"arguments\": {\"order_id\": \"O-1\","
                                        + " \"reason\": \"no longer needed\"}}]}",
                                transcript,
                                workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        Verdict wrong = judge(
                "actions_called",
                "{\"actions\": [{\"name\": \"cancel_order\", \"arguments\": {\"order_id\": \"O-2\"}}]}",
                transcript,
                workspace);
        assertThat(wrong.errorType()).isEqualTo("actions_called.missing");
        assertThat(wrong.detail().path("actions").get(0).path("called").asBoolean())
                .isFalse();
    }

    @Test
    void actions_called_narrows_the_comparison_to_compare_args_and_compares_numbers_by_value() {
        var transcript = transcript(call("c1", "pay", "{\"amount\": 12.0, \"memo\": \"whatever\"}"));

        Verdict verdict = judge(
                "actions_called",
                "{\"actions\": [{\"name\": \"pay\", \"arguments\": {\"amount\": 12, \"memo\": \"exact words\"},"
                        + " \"compare_args\": [\"amount\"], \"action_id\": \"pay_1\"}]}",
                transcript,
                workspace);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void told_user_finds_each_fact_case_insensitively_with_commas_removed() {
        Transcript transcript = answer("Your refund of 1,450 EUR is on its way; the order is Cancelled.");

        assertThat(judge("told_user", "{\"info\": [\"1450\", \"cancelled\"]}", transcript, workspace)
                        .status())
                .isEqualTo(Verdict.Status.PASSED);
        Verdict missing = judge("told_user", "{\"info\": [\"1450\", \"30 days\"]}", transcript, workspace);
        assertThat(missing.errorType()).isEqualTo("told_user.missing");
        assertThat(missing.detail().path("info").get(1).path("told").asBoolean())
                .isFalse();
    }

    @Test
    void state_matches_a_literal_state_in_any_key_order_and_lists_differences_as_pointers_with_both_values()
            throws Exception {
        JsonNode endState = Json.parse(
                "{\"orders\": {\"O-1\": {\"status\": \"cancelled\", \"total\": 32.0}}, \"log\": [\"a\", \"b\"]}");

        Verdict same = stateMatches(
                "{\"state\": {\"log\": [\"a\", \"b\"], \"orders\": {\"O-1\": {\"total\": 32, \"status\": "
                        + "\"cancelled\"}}}}",
                endState);
        Verdict different = stateMatches(
                "{\"state\": {\"orders\": {\"O-1\": {\"status\": \"pending\", \"total\": 32}}, \"log\": [\"a\"]}}",
                endState);

        assertThat(same.status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(different.errorType()).isEqualTo("state_matches.differs");
        JsonNode differences = different.detail().path("differences");
        assertThat(differences.findValuesAsText("pointer")).containsExactly("/orders/O-1/status", "/log/1");
        assertThat(differences.get(0).path("expected").asText()).isEqualTo("pending");
        assertThat(differences.get(0).path("actual").asText()).isEqualTo("cancelled");
        assertThat(differences.get(1).has("expected")).isFalse();
        assertThat(differences.get(1).path("actual").asText()).isEqualTo("b");
    }

    @Test
    void state_matches_leaves_out_what_is_ignored_and_everything_under_it() throws Exception {
        JsonNode endState = Json.parse("{\"transfers\": [{\"summary\": \"in the agent's words\"}], \"n\": 1}");

        Verdict verdict = stateMatches(
                "{\"state\": {\"transfers\": [{\"summary\": \"gold words\"}], \"n\": 1}, \"ignore\":"
                        + " [\"/transfers/0/summary\"]}",
                endState);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.PASSED);
    }

    @Test
    void state_matches_on_a_case_without_an_environment_is_an_error() {
        Verdict verdict = judge("state_matches", "{\"state\": {}}", answer("done"), workspace);

        assertThat(verdict.status()).isEqualTo(Verdict.Status.ERROR);
        assertThat(verdict.errorType()).isEqualTo("state_matches.no_environment");
    }

    @Test
    void bad_options_are_refused_when_the_suite_loads() {
        for (String expected : List.of(
                "{}",
                "{\"actions\": [], \"state\": {}}",
                "{\"state\": {}, \"ignore\": [\"no/slash\"]}",
                "{\"actions\": [{\"arguments\": {}}]}",
                "{\"state\": {}, \"extra\": 1}")) {
            assertThatThrownBy(() -> Judge.checker("state_matches", expected))
                    .as(expected)
                    .isInstanceOfSatisfying(
                            AssayException.class,
                            e -> assertThat(e.problem().type()).isEqualTo("check.invalid_expected"));
        }
        assertThatThrownBy(() -> Judge.checker("actions_called", "{\"actions\": []}"))
                .isInstanceOf(AssayException.class);
        assertThatThrownBy(() -> Judge.checker("told_user", "{\"info\": []}")).isInstanceOf(AssayException.class);
    }

    private Verdict stateMatches(String expectedJson, JsonNode endState) throws InterruptedException {
        Check check = Check.of("state_matches", Json.parse(expectedJson));
        Case evalCase = Case.of("case_1", "agent", "prompt", check);
        var environments = new Environments(
                Plugins.of("environment launcher", EnvironmentLauncher::name, List.of()), new UnsandboxedSandbox());
        var trial = new TrialEnvironment(
                new EnvironmentSpec(List.of("true"), "x://state", workspace),
                endState,
                environments,
                Duration.ofSeconds(5));
        return CheckerRegistry.builtins()
                .create(check)
                .check(CheckContext.of(evalCase, answer("done"), new Workspace(workspace))
                        .withEnvironment(trial));
    }
}
