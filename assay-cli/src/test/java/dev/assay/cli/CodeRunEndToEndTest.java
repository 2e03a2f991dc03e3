package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.sandbox.BubblewrapSandbox;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Code questions through the same engine, store and reports as every other case. */
class CodeRunEndToEndTest {
    @TempDir
    Path home;

    @Test
    void a_model_answering_with_the_reference_solutions_passes_every_code_question() throws Exception {
        Assumptions.assumeTrue(BubblewrapSandbox.find().isPresent(), "bubblewrap is not usable here: skipping");
        Path suite = Path.of("..", "examples", "code");
        Map<String, List<Reply>> answers = new HashMap<>();
        for (Case question : new SuiteLoader(CheckerRegistry.builtins())
                .load(suite)
                .requireValid()
                .cases()) {
            String language = question.attributes().path("code_language").asText("python");
            String solution = question.attributes().path("reference_solution").asText();
            answers.put(
                    question.prompt(),
                    List.of(ScriptedOpenAiServer.text(
                            "Here is my solution:\n```" + language + "\n" + solution + "\n```")));
        }
        try (var server = ScriptedOpenAiServer.start(
                ScriptedOpenAiServer.byPrompt(answers, request -> ScriptedOpenAiServer.text("no idea")))) {
            Path out = home.resolve("out");
            var result = new CliRunner(home)
                    .run(
                            "run",
                            suite.toString(),
                            "--model",
                            "openai:scripted",
                            "--base-url",
                            server.baseUrl(),
                            "--api-key-env",
                            "NONE",
                            "--out",
                            out.toString(),
                            "-q",
                            "--concurrency",
                            "2");
            assertThat(result.code()).as(result.err()).isZero();
            JsonNode report = Json.MAPPER.readTree(out.resolve("report.json").toFile());
            assertThat(report.path("dimension_scores").path("code").asDouble()).isEqualTo(1.0);
            JsonNode detail = report.at("/items/0/checker_detail/checks/0/detail");
            assertThat(detail.path("sandbox").asText()).isEqualTo("bubblewrap");
            assertThat(detail.path("all_passed").asBoolean()).isTrue();
            assertThat(detail.path("cases").size()).isPositive();
        }
    }
}
