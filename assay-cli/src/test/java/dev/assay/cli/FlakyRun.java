package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * A run with one item in error: a scripted model that answers "ok", except to the case whose prompt is "flaky" while
 * {@code broken} says so (HTTP 500), and a run of a suite against it without retries.
 */
final class FlakyRun {
    private FlakyRun() {}

    /** {@return the scripted model} */
    static ScriptedOpenAiServer model(BooleanSupplier broken) {
        return ScriptedOpenAiServer.start(
                request -> broken.getAsBoolean() && request.firstUserText().contains("flaky")
                        ? ScriptedOpenAiServer.failure(500)
                        : ScriptedOpenAiServer.text("ok"));
    }

    /** Runs the suite once against the model; {@return the run's id}, once it has ended with one item in error */
    static String run(CliRunner cli, Path suite, ScriptedOpenAiServer model) {
        var first = cli.run(
                "run",
                suite.toString(),
                "--model",
                "openai:scripted",
                "--base-url",
                model.baseUrl(),
                "--api-key-env",
                "NONE",
                "--retries",
                "0",
                "--format",
                "json",
                "-q");
        assertThat(Json.parse(first.out()).at("/counts/error").asInt())
                .as(first.out())
                .isEqualTo(1);
        return Json.parse(first.out()).path("run_id").asText();
    }
}
