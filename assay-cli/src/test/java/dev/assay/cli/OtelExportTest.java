package dev.assay.cli;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.assay.Json;
import dev.assay.run.RunObserver;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run exported as OpenTelemetry traces to a real OTLP/HTTP receiver on loopback (protobuf, decoded with the OTLP
 * messages): one trace per run, a span per run, trial, model call and tool call, their hierarchy and attributes; and a
 * run without the variables exports nothing and loads no class of the SDK.
 */
class OtelExportTest {
    @TempDir
    Path home;

    /** A case the model answers by writing a file, then saying "done". */
    private static ScriptedOpenAiServer.Script writeThenAnswer() {
        return request -> request.assistantTurns() == 0
                ? calls(Call.of("write_file", "{\"path\": \"report.txt\", \"content\": \"revenue up\"}"))
                : text("done");
    }

    private Path suite() throws Exception {
        return Files.writeString(home.resolve("suite.jsonl"), """
                {"id": "report", "dimension": "tool", "prompt": "Write the report", "checker": "contains", "expected": "done"}
                """);
    }

    private CliRunner.Result run(CliRunner cli, ScriptedOpenAiServer model, String... extra) throws Exception {
        var args = new ArrayList<>(List.of(
                "run",
                suite().toString(),
                "--model",
                "openai:scripted",
                "--base-url",
                model.baseUrl(),
                "--api-key-env",
                "SCRIPTED_KEY",
                "--samples",
                "2",
                "--temperature",
                "0",
                "--format",
                "json",
                "--quiet"));
        args.addAll(List.of(extra));
        return cli.run(args.toArray(String[]::new));
    }

    @Test
    void a_run_is_one_trace_of_its_trials_model_calls_and_tool_calls_with_their_attributes() throws Exception {
        try (var receiver = new OtlpReceiver();
                var model = ScriptedOpenAiServer.start(writeThenAnswer())) {
            var result = run(
                    new CliRunner(home)
                            .withEnv("SCRIPTED_KEY", "sk-test")
                            .withEnv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint()),
                    model);
            assertThat(result.code()).as(result.err()).isZero();
            String runId = Json.parse(result.out()).path("run_id").asText();

            List<OtlpReceiver.Received> spans = receiver.spans();
            assertThat(receiver.requests()).allMatch(line -> line.equals("POST /v1/traces application/x-protobuf"));
            assertThat(spans)
                    .extracting(s -> s.span().getTraceId())
                    .containsOnly(spans.getFirst().span().getTraceId());
            assertThat(spans).allMatch(s -> "assay".equals(s.resourceAttribute("service.name")));

            List<OtlpReceiver.Received> runs = named(spans, "assay.run");
            assertThat(runs).hasSize(1);
            OtlpReceiver.Received run = runs.getFirst();
            assertThat(run.span().getParentSpanId()).isEqualTo(ByteString.EMPTY);
            assertThat(run.attribute("assay.run.id")).isEqualTo(runId);
            assertThat(run.attribute("assay.run.status")).isEqualTo("finished");
            assertThat(run.attribute("assay.run.items")).isEqualTo("2");
            assertThat(run.attribute("assay.run.total_score")).isEqualTo("1.0");

            List<OtlpReceiver.Received> trials = named(spans, "assay.case");
            assertThat(trials)
                    .extracting(t -> t.attribute("assay.case.id"))
                    .containsExactlyInAnyOrder("report#1", "report#2");
            for (OtlpReceiver.Received trial : trials) {
                assertThat(trial.span().getParentSpanId()).isEqualTo(run.span().getSpanId());
                assertThat(trial.attribute("assay.run.id")).isEqualTo(runId);
                assertThat(trial.attribute("assay.item.status")).isEqualTo("passed");
                assertThat(trial.attribute("assay.item.score")).isEqualTo("1.0");

                // Within the trial, in the agent loop's order: the model calls the tool, the tool runs, the model
                // answers.
                List<OtlpReceiver.Received> children = spans.stream()
                        .filter(s ->
                                s.span().getParentSpanId().equals(trial.span().getSpanId()))
                        .sorted(Comparator.comparingLong(s -> s.span().getStartTimeUnixNano()))
                        .toList();
                assertThat(children)
                        .extracting(s -> s.span().getName())
                        .containsExactly("chat scripted", "execute_tool write_file", "chat scripted");
                OtlpReceiver.Received firstCall = children.get(0);
                OtlpReceiver.Received tool = children.get(1);
                OtlpReceiver.Received answer = children.get(2);
                for (OtlpReceiver.Received call : List.of(firstCall, answer)) {
                    assertThat(call.span().getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
                    assertThat(call.attribute("gen_ai.operation.name")).isEqualTo("chat");
                    assertThat(call.attribute("gen_ai.provider.name")).isEqualTo("openai");
                    assertThat(call.attribute("gen_ai.system")).isEqualTo("openai");
                    assertThat(call.attribute("gen_ai.request.model")).isEqualTo("scripted");
                    assertThat(call.attribute("gen_ai.request.temperature")).isEqualTo("0.0");
                    assertThat(Long.parseLong(call.attribute("gen_ai.usage.input_tokens")))
                            .isPositive();
                    assertThat(call.attribute("gen_ai.usage.output_tokens")).isNotNull();
                }
                assertThat(firstCall.attribute("gen_ai.response.finish_reasons"))
                        .isEqualTo("tool_calls");
                assertThat(answer.attribute("gen_ai.response.finish_reasons")).isEqualTo("stop");
                assertThat(firstCall.span().getEndTimeUnixNano())
                        .isLessThanOrEqualTo(tool.span().getStartTimeUnixNano());
                assertThat(tool.span().getEndTimeUnixNano())
                        .isLessThanOrEqualTo(answer.span().getStartTimeUnixNano());
                assertThat(tool.attribute("gen_ai.operation.name")).isEqualTo("execute_tool");
                assertThat(tool.attribute("gen_ai.tool.name")).isEqualTo("write_file");
                assertThat(tool.attribute("gen_ai.tool.call.id")).isNotBlank();
                assertThat(tool.span().getStatus().getCode()).isNotEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
            }
            assertThat(spans).hasSize(1 + 2 + 2 * 3);
        }
    }

    @Test
    void a_collector_that_is_down_costs_the_traces_said_once_never_the_run() throws Exception {
        int closedPort;
        try (var receiver = new OtlpReceiver()) {
            closedPort = Integer.parseInt(
                    receiver.endpoint().substring(receiver.endpoint().lastIndexOf(':') + 1));
        }
        try (var model = ScriptedOpenAiServer.start(writeThenAnswer())) {
            var result = run(
                    new CliRunner(home)
                            .withEnv("SCRIPTED_KEY", "sk-test")
                            .withEnv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + closedPort)
                            // Without retries the test does not wait out the exporter's back-off.
                            .withEnv("OTEL_JAVA_EXPORTER_OTLP_RETRY_DISABLED", "true"),
                    model);
            assertThat(result.code()).as(result.err()).isZero();
            assertThat(Json.parse(result.out()).path("counts").path("passed").asInt())
                    .isEqualTo(2);
            assertThat(result.err().lines().filter(line -> line.contains("OpenTelemetry")))
                    .hasSize(1);
        }
    }

    @Test
    void a_configuration_the_sdk_refuses_stops_the_command_before_the_run_with_otel_invalid_config() throws Exception {
        try (var model = ScriptedOpenAiServer.start(writeThenAnswer())) {
            var result = run(
                    new CliRunner(home).withEnv("SCRIPTED_KEY", "sk-test").withEnv("OTEL_TRACES_SAMPLER", "sometimes"),
                    model,
                    "--otel");
            assertThat(result.code()).isEqualTo(ExitCodes.CANNOT_RUN);
            assertThat(result.err()).contains("otel.invalid_config");
            assertThat(model.requests()).isEmpty();
        }
    }

    @Test
    void otel_without_the_variables_is_the_no_op_observer_and_exports_nothing() throws Exception {
        var stderr = new PrintWriter(new StringWriter());
        assertThat(Telemetry.observer(false, Map.of("ASSAY_HOME", home.toString()), stderr))
                .isSameAs(RunObserver.NONE);
        assertThat(Telemetry.observer(false, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", " "), stderr))
                .isSameAs(RunObserver.NONE);
        try (var receiver = new OtlpReceiver();
                var model = ScriptedOpenAiServer.start(writeThenAnswer())) {
            var result = run(
                    new CliRunner(home)
                            .withEnv("SCRIPTED_KEY", "sk-test")
                            .withEnv("OTEL_SERVICE_NAME", "not-asked-for"),
                    model);
            assertThat(result.code()).as(result.err()).isZero();
            assertThat(receiver.requests()).isEmpty();
        }
    }

    /**
     * The CLI in a JVM of its own, logging every class it loads: a run without the variables loads nothing of
     * OpenTelemetry, and the same run with {@code --otel} does (so the check can tell the two apart).
     */
    @Test
    void a_run_without_the_variables_loads_no_class_of_opentelemetry() throws Exception {
        try (var receiver = new OtlpReceiver()) {
            Path suite = Files.writeString(home.resolve("mock.jsonl"), """
                    {"id": "capital", "dimension": "common", "prompt": "Capital of France?", "checker": "contains", "expected": "Paris"}
                    """);
            assertThat(loadedClasses(suite, Map.of())).noneMatch(line -> line.contains("io.opentelemetry"));
            assertThat(receiver.requests()).isEmpty();

            List<String> traced = loadedClasses(suite, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint()));
            assertThat(traced).anyMatch(line -> line.contains("io.opentelemetry.sdk.trace"));
            assertThat(receiver.spans()).extracting(s -> s.span().getName()).contains("assay.run", "assay.case");
        }
    }

    private List<String> loadedClasses(Path suite, Map<String, String> env) throws Exception {
        Path log = Files.createTempFile(home, "classes", ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var builder = new ProcessBuilder(
                        java,
                        "-Xlog:class+load=info:file=" + log,
                        "-cp",
                        System.getProperty("java.class.path"),
                        AssayCli.class.getName(),
                        "run",
                        suite.toString(),
                        "--model",
                        "mock",
                        "--quiet")
                .redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("OTEL_"));
        builder.environment().put("ASSAY_HOME", home.toString());
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return Files.readAllLines(log);
    }

    private static List<OtlpReceiver.Received> named(List<OtlpReceiver.Received> spans, String name) {
        return spans.stream().filter(s -> s.span().getName().equals(name)).toList();
    }
}
