package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DialogCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** Runs {@code assay dialog ARGS} as {@code main} does, with chat models from {@code models}. */
    private int execute(Function<dev.assay.model.ModelOptions, ChatModel> models, String... args) {
        var line = new String[args.length + 1];
        line[0] = "dialog";
        System.arraycopy(args, 0, line, 1, args.length);
        return AssayCli.run(
                new PrintWriter(out),
                new PrintWriter(err),
                Map.of("ASSAY_HOME", dir.toString()),
                models == null ? DialogCommandTest::unreachable : models,
                line);
    }

    /** A model factory that cannot make the model, as when its API key is not set. */
    private static ChatModel unreachable(dev.assay.model.ModelOptions options) {
        throw new AssayException(Problem.of("target.missing_api_key", "set the API key"));
    }

    private static Path memfin() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("shared/data/memfin"))) {
                return d.resolve("shared/data/memfin");
            }
        }
        Assumptions.abort("reference data shared/data/memfin not found; test skipped");
        return null;
    }

    /** Echoes the user message. */
    private static ChatModel echo(dev.assay.model.ModelOptions options) {
        String name = options.model();
        return new ChatModel() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public ModelResponse complete(ModelRequest request) {
                return new ModelResponse("回答：" + request.messages().getLast().content(), "", List.of(), null, "stop");
            }
        };
    }

    @Test
    void score_reproduces_a_recorded_summary_with_the_dataset_joined() throws IOException {
        Path run = memfin().resolve("runs/20260219_144052");

        int code = execute(
                null,
                "score",
                "--traces",
                run.resolve("dialog_trace.jsonl").toString(),
                "--dataset",
                memfin().resolve("datasets/MemFinConv.jsonl").toString(),
                "--out",
                dir.toString());

        assertThat(code).isZero();
        var expected =
                dev.assay.Json.parse(Files.readString(run.resolve("metrics_summary.json"), StandardCharsets.UTF_8));
        var actual =
                dev.assay.Json.parse(Files.readString(dir.resolve("metrics_summary.json"), StandardCharsets.UTF_8));
        assertThat(actual.path("metrics")).isEqualTo(expected.path("metrics"));
        assertThat(dir.resolve("turn_eval.jsonl")).exists();
        assertThat(dir.resolve("report.md")).exists();
        assertThat(out.toString()).contains("m3_risk_coverage (eligible 33)");
    }

    @Test
    void score_with_a_missing_trace_file_is_invalid_input() {
        int code =
                execute(null, "score", "--traces", dir.resolve("absent.jsonl").toString());

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("dialog.trace_unreadable");
    }

    @Test
    void an_unknown_metrics_profile_is_a_usage_error() throws IOException {
        Path traces = Files.writeString(dir.resolve("t.jsonl"), "");

        int code = execute(null, "score", "--traces", traces.toString(), "--metrics-profile", "nope");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("dialog.unknown_metrics_profile");
    }

    @Test
    void a_judge_worker_count_below_one_is_a_usage_error() throws IOException {
        Path traces = Files.writeString(dir.resolve("t.jsonl"), "");

        int code = execute(null, "score", "--traces", traces.toString(), "--workers-judge", "0");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("--workers-judge").contains("at least 1");
    }

    @Test
    void a_worker_count_below_one_is_a_usage_error() throws IOException {
        int code = execute(
                DialogCommandTest::echo,
                "run",
                dataset().toString(),
                "--model",
                "echo-1",
                "--workers-dialog",
                "0",
                "--out",
                dir.toString());

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("--workers-dialog").contains("at least 1");
    }

    private Path dataset() throws IOException {
        String line = "{\"dialog_id\":\"d1\",\"profile_gt\":{\"risk_level_gt\":\"稳健\"},\"turns\":["
                + "{\"role\":\"user\",\"text\":\"你好\",\"turn_tags\":null},"
                + "{\"role\":\"assistant\",\"text\":\"您好\",\"turn_tags\":{\"memory_required_keys_gt\":[],"
                + "\"risk_disclosure_required_gt\":[\"波动风险\"],\"compliance_label_gt\":\"compliant\","
                + "\"explainability_rubric_gt\":[\"信息依据\"]}}]}";
        return Files.writeString(dir.resolve("data.jsonl"), line + "\nbroken\n");
    }

    @Test
    void run_replays_the_dataset_against_the_model_from_the_factory() throws IOException {
        Path data = dataset();

        int code = execute(
                DialogCommandTest::echo,
                "run",
                data.toString(),
                "--model",
                "echo-1",
                "--run-id",
                "r1",
                "--out",
                dir.resolve("runs").toString(),
                "--workers-dialog",
                "2",
                "--db",
                "jdbc:sqlite:" + dir.resolve("a.db"));

        assertThat(code).as(err.toString()).isZero();
        try (var store = dev.assay.store.Stores.open("jdbc:sqlite:" + dir.resolve("a.db"))) {
            var stored = store.findRun("r1").orElseThrow();
            assertThat(stored.kind()).isEqualTo(dev.assay.result.RunKind.DIALOG);
            assertThat(stored.dimensionScores()).containsKeys("m1", "m2", "m3", "m4", "m5");
            assertThat(store.countItems("r1")).isPositive();
        }
        Path runDir = dir.resolve("runs/r1");
        var manifest = dev.assay.Json.parse(Files.readString(runDir.resolve("run_manifest.json")));
        assertThat(manifest.path("target").asText()).isEqualTo("chat:echo-1");
        assertThat(manifest.path("workers_dialog").asInt()).isEqualTo(2);
        assertThat(Files.readAllLines(runDir.resolve("dialog_trace.jsonl"))).hasSize(2);
        assertThat(err.toString()).contains("skipped 1 line(s): invalid_json");
    }

    @Test
    void run_with_a_model_that_cannot_be_made_could_not_run() throws IOException {
        int code = execute(null, "run", dataset().toString(), "--model", "x", "--out", dir.toString());

        assertThat(code).isEqualTo(ExitCodes.CANNOT_RUN);
        assertThat(err.toString()).contains("target.missing_api_key");
    }

    @Test
    void run_without_a_model_is_a_usage_error() throws IOException {
        int code = execute(DialogCommandTest::echo, "run", dataset().toString());

        assertThat(code).isEqualTo(2);
    }

    @Test
    void a_run_id_that_is_not_one_path_segment_is_a_usage_error() throws IOException {
        int code = execute(
                DialogCommandTest::echo,
                "run",
                dataset().toString(),
                "--model",
                "echo-1",
                "--run-id",
                "../escape",
                "--out",
                dir.resolve("runs").toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("config.invalid_run_id");
        assertThat(dir.resolve("escape")).doesNotExist();
    }

    @Test
    void a_run_id_of_a_capability_run_is_refused_and_that_run_kept() throws IOException {
        String db = "jdbc:sqlite:" + dir.resolve("assay.db");
        try (var store = dev.assay.store.Stores.open(db)) {
            store.createRun(new dev.assay.result.Run(
                    "cap1",
                    dev.assay.result.RunKind.CAPABILITY,
                    "",
                    "mock",
                    "",
                    dev.assay.result.RunStatus.FINISHED,
                    "s",
                    "",
                    null,
                    null,
                    null,
                    1.0,
                    null,
                    java.time.Instant.now(),
                    java.time.Instant.now(),
                    0,
                    null));
        }
        int code = execute(
                DialogCommandTest::echo,
                "run",
                dataset().toString(),
                "--model",
                "echo-1",
                "--run-id",
                "cap1",
                "--out",
                dir.resolve("runs").toString(),
                "--db",
                db);

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("config.run_id_taken");
        try (var store = dev.assay.store.Stores.open(db)) {
            assertThat(store.findRun("cap1").orElseThrow().kind()).isEqualTo(dev.assay.result.RunKind.CAPABILITY);
        }
    }
}
