package dev.assay.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.assay.check.CheckerRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A case's declared functions: read in every accepted shape, normalised, and every problem reported at load. */
class DeclaredToolsTest {
    private final SuiteLoader loader = new SuiteLoader(CheckerRegistry.builtins());

    @TempDir
    Path dir;

    private SuiteLoad load(String casesJsonl) throws IOException {
        return loader.load(Files.writeString(dir.resolve("fc.jsonl"), casesJsonl));
    }

    private SuiteLoad loadJson(String caseJson) throws IOException {
        return loader.load(Files.writeString(dir.resolve("fc.json"), "[" + caseJson + "]"));
    }

    private static String fcCase(String id, String declarations) {
        return "{\"id\": \"" + id + "\", \"dimension\": \"tool\", \"prompt\": \"p\", \"checker\": \"contains\","
                + " \"expected\": \"x\", " + declarations + "}";
    }

    @Test
    void openai_wrapper_and_bfcl_types_are_read_as_json_schema() throws IOException {
        Suite suite = loadJson(fcCase("a", """
                "tools": [{"type": "function", "function": {"name": "math.mean", "description": "Mean.",
                  "parameters": {"type": "dict", "properties": {"xs": {"type": "tuple", "items": {"type": "float"}},
                    "opts": {"type": "dict", "properties": {"w": {"type": "any"}}}}, "required": ["xs"]}}},
                  {"name": "ping"}], "builtin_tools": true""")).requireValid();

        DeclaredTools declared = DeclaredTools.of(suite.cases().getFirst());
        assertThat(declared.builtinTools()).isTrue();
        assertThat(declared.functions())
                .extracting(DeclaredTools.DeclaredFunction::name)
                .containsExactly("math.mean", "ping");
        var mean = declared.function("math.mean").orElseThrow();
        assertThat(mean.description()).isEqualTo("Mean.");
        assertThat(mean.parameters().path("type").asText()).isEqualTo("object");
        assertThat(mean.property("xs").path("type").asText()).isEqualTo("array");
        assertThat(mean.property("xs").at("/items/type").asText()).isEqualTo("number");
        assertThat(mean.property("opts").path("type").asText()).isEqualTo("object");
        assertThat(mean.property("opts").at("/properties/w").has("type")).isFalse();
        assertThat(mean.required()).containsExactly("xs");
        assertThat(declared.function("ping")
                        .orElseThrow()
                        .parameters()
                        .path("type")
                        .asText())
                .isEqualTo("object");
    }

    @Test
    void a_case_without_tools_declares_nothing() throws IOException {
        Suite suite = load(fcCase("a", "\"tags\": []")).requireValid();

        assertThat(DeclaredTools.of(suite.cases().getFirst()).isEmpty()).isTrue();
    }

    @Test
    void every_problem_names_file_line_and_field() throws IOException {
        SuiteLoad load = load(String.join(
                "\n",
                List.of(
                        fcCase("shape", "\"tools\": {\"name\": \"f\"}"),
                        fcCase("unnamed", "\"tools\": [{\"description\": \"no name\"}]"),
                        fcCase(
                                "type",
                                "\"tools\": [{\"name\": \"f\", \"parameters\": {\"type\": \"dict\", \"properties\": "
                                        + "{\"n\": {\"type\": \"decimal\"}}}}]"),
                        fcCase("twice", "\"tools\": [{\"name\": \"f\"}, {\"name\": \"f\"}]"),
                        fcCase(
                                "results",
                                "\"tools\": [{\"name\": \"f\"}], \"tool_results\": {\"g\": 1, \"f\": [{\"args\": 3, "
                                        + "\"result\": 1, \"note\": 2}]}"),
                        fcCase("lonely", "\"builtin_tools\": true, \"tool_results\": {}"),
                        fcCase("flag", "\"tools\": [{\"name\": \"f\"}], \"builtin_tools\": \"yes\""),
                        """
                {"id": "bfcl", "dimension": "tool", "prompt": "p", "tools": [{"name": "f"}], "checker": "tool_args",
                 "expected": {"tool": "g", "args": {}, "match": "bfcl"}}""".replace("\n", " "))));

        assertThat(load.problems())
                .extracting(CaseProblem::caseId, p -> p.source().line(), CaseProblem::field, CaseProblem::type)
                .containsExactly(
                        tuple("shape", 1, "tools", "case.invalid_field"),
                        tuple("unnamed", 2, "tools[0].name", "case.missing_field"),
                        tuple("type", 3, "tools[0].parameters.properties.n.type", "case.invalid_field"),
                        tuple("twice", 4, "tools[1].name", "case.invalid_field"),
                        tuple("results", 5, "tool_results.g", "case.invalid_field"),
                        tuple("results", 5, "tool_results.f[0].note", "case.invalid_field"),
                        tuple("results", 5, "tool_results.f[0].args", "case.invalid_field"),
                        tuple("lonely", 6, "builtin_tools", "case.invalid_field"),
                        tuple("lonely", 6, "tool_results", "case.invalid_field"),
                        tuple("flag", 7, "builtin_tools", "case.invalid_field"),
                        tuple("bfcl", 8, "expected", "check.invalid_expected"));
        assertThat(load.problems())
                .allSatisfy(problem -> assertThat(problem.source().file()).endsWith("fc.jsonl"));
        assertThat(load.isValid()).isFalse();
    }

    @Test
    void the_function_calling_example_suite_loads_and_every_case_declares_its_functions() {
        Path examples = TestCheckers.exampleSuite().resolveSibling("function-calling");
        SuiteLoad example = loader.load(examples);

        assertThat(example.problems()).isEmpty();
        assertThat(example.suite().cases())
                .hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy(evalCase ->
                        assertThat(DeclaredTools.of(evalCase).isEmpty()).isFalse());
        assertThat(example.suite().cases())
                .flatExtracting(Case::tags)
                .contains("simple", "multiple", "parallel", "parallel_multiple");
    }
}
