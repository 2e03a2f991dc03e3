package dev.assay.cases;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file's {@code defaults}, a case's {@code environment}, and a check's options written beside its checker. */
class CaseDefaultsTest {
    @TempDir
    Path dir;

    private SuiteLoad load(String json) throws Exception {
        Path file = dir.resolve("tasks.json");
        Files.writeString(file, json);
        var registry = TestCheckers.registry().with(new TestCheckers.Shape("told_user", JsonNode::isObject, "{info}"));
        return new SuiteLoader(registry).load(file);
    }

    @Test
    void each_case_takes_the_defaults_it_lacks_and_keeps_its_own() throws Exception {
        SuiteLoad load = load("""
                {"defaults": {"dimension": "agent",
                              "environment": {"mcp": {"command": ["python3", "env/shop.py"]}, "state": "shop://db"}},
                 "cases": [
                   {"id": "a", "prompt": "p", "checks": [{"checker": "told_user", "info": ["x"]}]},
                   {"id": "b", "dimension": "tool", "prompt": "p", "checker": "contains", "expected": "x",
                    "environment": {"mcp": {"command": ["./other"]}, "state": "other://s"}}]}
                """);

        assertThat(load.problems()).isEmpty();
        Case first = load.suite().cases().get(0);
        Case second = load.suite().cases().get(1);
        assertThat(first.dimension()).isEqualTo("agent");
        assertThat(first.attributes().path("environment").path("state").asText())
                .isEqualTo("shop://db");
        assertThat(second.dimension()).isEqualTo("tool");
        assertThat(second.attributes().path("environment").path("state").asText())
                .isEqualTo("other://s");
        assertThat(first.checks().get(0).expected().path("info").get(0).asText())
                .isEqualTo("x");
    }

    @Test
    void a_malformed_environment_is_a_problem_naming_its_field() throws Exception {
        SuiteLoad load = load("""
                [{"id": "a", "dimension": "agent", "prompt": "p", "checker": "contains", "expected": "x",
                  "environment": {"mcp": {"command": []}, "state": ""}}]
                """);

        assertThat(load.problems())
                .extracting(CaseProblem::field)
                .containsExactlyInAnyOrder("environment.mcp.command", "environment.state");
        assertThat(load.problems())
                .allSatisfy(problem -> assertThat(problem.type()).isEqualTo("case.invalid_field"));
    }

    @Test
    void defaults_that_give_an_id_are_refused() throws Exception {
        SuiteLoad load = load("""
                {"defaults": {"id": "same"},
                 "cases": [{"id": "a", "dimension": "agent", "prompt": "p", "checker": "contains", "expected": "x"}]}
                """);

        assertThat(load.problems()).extracting(CaseProblem::field).contains("defaults");
    }
}
