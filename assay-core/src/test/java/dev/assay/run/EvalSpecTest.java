package dev.assay.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.DatasetMapping;
import dev.assay.check.judge.JudgeConfig;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.score.Weights;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.ToolMode;
import dev.assay.subject.sse.SseAgentSettings;
import dev.assay.tools.McpServerConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The run's spec is its stored snapshot: written by Jackson, read back equal, older versions upgraded by code. */
class EvalSpecTest {
    /** A snapshot as Assay wrote it at spec_version 1 (RunRequest#snapshot), kept literally. */
    private static final String VERSION_1 = """
            {"model": {"model": "openai:gpt-test", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "TEST_API_KEY",
                       "api_key_env_named": true, "stream": true, "request_timeout_s": 120.0,
                       "retry": {"max_attempts": 3, "initial_delay_s": 1.0, "max_delay_s": 30.0,
                                 "max_total_wait_s": 60.0}},
             "target": {"type": "agent", "model": "openai:gpt-test", "tool_mode": "text", "max_steps": 5,
                        "temperature": 0.5, "seed": 7, "max_tokens": 256, "tools": ["read_file", "final_answer"]},
             "spec_version": 1,
             "suites": ["suite.jsonl"], "suites_resolved": ["/evals/suite.jsonl"], "skip_invalid": true,
             "selection": {"dimensions": ["tool"], "language": "en-US", "tags": [], "ids": [], "seed": 7, "limit": 3},
             "concurrency": 8, "samples": 2, "timeout_s": 30.0,
             "weights": {"tool": 50.0, "logic": 10.0}, "scoring": "reference",
             "sandbox": "bubblewrap", "allow_unsandboxed_commands": false, "allow_unsandboxed_code": true,
             "workspace_policy": "keep_all", "allowed_tools": ["read_file"], "user_id": "ann",
             "metrics": ["weighted-score"],
             "mcp": {"servers": [{"name": "calc", "transport": "http", "url": "http://127.0.0.1:9/mcp",
                                  "headers": {"Authorization": "CALC_TOKEN"}, "status": "unavailable",
                                  "reason": "connection refused"}]},
             "code_sandbox": "unconfined"}
            """;

    /**
     * A dialog run's description as Assay wrote it before it was a spec (DialogRunRequest#snapshot), kept literally.
     */
    private static final String DIALOG_VERSION_1 = """
            {"spec_version": 1, "dataset": "data/dialogs.jsonl", "dataset_resolved": "/data/dialogs.jsonl",
             "model": {"model": "openai:gpt-test", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "TEST_API_KEY",
                       "api_key_env_named": true, "stream": false, "request_timeout_s": 45.0,
                       "retry": {"max_attempts": 3, "initial_delay_s": 1.0, "max_delay_s": 30.0,
                                 "max_total_wait_s": 60.0}},
             "temperature": null, "seed": 7, "system_prompt": "Be brief.", "prompt_version": "v3",
             "workers_dialog": 2, "turn_timeout_s": 45.0, "turn_retries": 0, "metrics_profile": "memfin-v1-corrected",
             "blank_memory_keys": true,
             "judge": {"model": {"model": "openai:judge", "base_url": null, "api_key_env": "JUDGE_API_KEY",
                                 "api_key_env_named": true, "stream": false, "request_timeout_s": 120.0,
                                 "retry": {"max_attempts": 3, "initial_delay_s": 1.0, "max_delay_s": 30.0,
                                           "max_total_wait_s": 60.0}},
                       "workers": 3},
             "run_directory": "/runs/dialog/d1", "user_id": "ann"}
            """;

    private static EvalSpec roundTrip(EvalSpec spec) {
        // As the store keeps it: JSON text.
        return Json.read(Json.write(spec), EvalSpec.class);
    }

    private static Run stored(String runId, JsonNode config) {
        return new Run(
                runId,
                RunKind.CAPABILITY,
                "",
                "openai:gpt-test",
                "",
                RunStatus.INTERRUPTED,
                "suite",
                "v1",
                config,
                List.of(),
                Map.of(),
                null,
                null,
                Instant.EPOCH,
                null,
                0,
                null);
    }

    @Test
    void a_spec_of_each_system_under_test_is_equal_after_a_json_round_trip() {
        var base = new RunSettings().suites(List.of(Path.of("suite.jsonl"))).userId("ann");
        List<EvalSpec> specs = List.of(
                base.model(ModelOptions.of("openai:m")).resolve(),
                new RunSettings()
                        .suites(List.of(Path.of("suite.jsonl")))
                        .agentService(SseAgentSettings.of(URI.create("http://127.0.0.1:9/run")))
                        .resolve(),
                new RunSettings()
                        .suites(List.of(Path.of("suite.jsonl")))
                        .replay(Path.of("recording.jsonl"))
                        .resolve(),
                new RunSettings()
                        .suites(List.of(Path.of("suite.jsonl")))
                        .subject("echo:hello:world")
                        .mcpServers(List.of(
                                new McpServerConfig.Stdio("files", "files-server", List.of("-v"), List.of("HOME")),
                                new McpServerConfig.Http(
                                        "calc", "http://127.0.0.1:9/mcp", Map.of("Authorization", "CALC_TOKEN"))))
                        .keepWorkspaces(true)
                        .resolve());

        for (EvalSpec spec : specs) {
            assertThat(roundTrip(spec)).isEqualTo(spec);
        }
        assertThat(specs.get(3).subject().sut()).isEqualTo(new EvalSpec.Plugin("echo", "hello:world"));
    }

    @Test
    void the_judge_models_are_part_of_the_spec_and_survive_the_round_trip() {
        var judges = List.of(
                new JudgeConfig(
                        "default",
                        new ModelOptions("openai:judge", "http://127.0.0.1:9/v1", "JUDGE_KEY", false, null, null),
                        java.time.Duration.ofSeconds(45)),
                new JudgeConfig("strict", ModelOptions.of("anthropic:claude"), null));
        EvalSpec spec = new RunSettings()
                .suites(List.of(Path.of("suite.jsonl")))
                .model(ModelOptions.of("openai:m"))
                .judges(judges)
                .judgeCache(false)
                .judgeMinKappa(0.7)
                .resolve();

        assertThat(spec.scoring().judges()).isEqualTo(judges);
        assertThat(roundTrip(spec)).isEqualTo(spec);
        JsonNode stored = spec.toJson();
        assertThat(stored.path("spec_version").asInt()).isEqualTo(3);
        assertThat(stored.path("judges")
                        .get(0)
                        .path("model")
                        .path("api_key_env")
                        .asText())
                .isEqualTo("JUDGE_KEY");
        assertThat(stored.path("judge_cache").asBoolean()).isFalse();
        assertThat(stored.path("judge_min_kappa").asDouble()).isEqualTo(0.7);
    }

    @Test
    void a_version_2_snapshot_reads_with_no_judges_and_takes_a_configurations() {
        com.fasterxml.jackson.databind.node.ObjectNode old = new RunSettings()
                .suites(List.of(Path.of("suite.jsonl")))
                .model(ModelOptions.of("openai:m"))
                .resolve()
                .toJson();
        old.remove(List.of("judges", "judge_cache", "judge_min_kappa"));
        old.put("spec_version", 2);
        Run run = stored("r1", old);

        EvalSpec spec = EvalSpec.toResume(run);
        assertThat(EvalSpec.namesJudges(run)).isFalse();
        assertThat(spec.scoring().judges()).isEmpty();
        assertThat(spec.scoring().judgeCache()).isTrue();
        assertThat(spec.scoring().judgeMinKappa()).isEqualTo(EvalSpec.Scoring.DEFAULT_JUDGE_MIN_KAPPA);
        var configured = List.of(new JudgeConfig("default", ModelOptions.of("mock"), null));
        assertThat(spec.withJudges(configured).scoring().judges()).isEqualTo(configured);
    }

    @Test
    void the_stored_spec_keeps_the_keys_of_the_snapshot_and_adds_what_it_was_made_from() {
        JsonNode stored = Json.tree(new RunSettings()
                .suites(List.of(Path.of("suite.jsonl")))
                .model(ModelOptions.of("openai:m"))
                .resolve());

        assertThat(stored.path("spec_version").asInt()).isEqualTo(EvalSpec.VERSION);
        for (String key : List.of(
                "model",
                "suites",
                "suites_resolved",
                "skip_invalid",
                "selection",
                "concurrency",
                "samples",
                "timeout_s",
                "weights",
                "scoring",
                "allow_unsandboxed_commands",
                "allow_unsandboxed_code",
                "workspace_policy",
                "allowed_tools",
                "user_id",
                "agent",
                "mcp_servers")) {
            assertThat(stored.has(key)).as(key).isTrue();
        }
        assertThat(stored.path("timeout_s").asDouble()).isEqualTo(120.0);
        assertThat(stored.path("workspace_policy").asText()).isEqualTo("keep_on_failure");
        assertThat(stored.path("agent").path("tool_mode").asText()).isEqualTo("native");
    }

    @Test
    void a_version_1_snapshot_is_upgraded_into_the_spec_it_described() {
        EvalSpec spec = EvalSpec.read(Json.parse(VERSION_1));

        assertThat(spec.subject().sut())
                .isEqualTo(new EvalSpec.Model(new ModelOptions(
                        "openai:gpt-test",
                        "http://127.0.0.1:9/v1",
                        "TEST_API_KEY",
                        true,
                        Duration.ofSeconds(120),
                        new RetryPolicy(3, Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(60)),
                        true)));
        assertThat(spec.subject().agent()).isEqualTo(new AgentSettings(ToolMode.TEXT, 5, 0.5, 7L, 256));
        assertThat(spec.subject().tools().allowed()).containsExactly("read_file");
        assertThat(spec.subject().tools().mcpServers())
                .containsExactly(new McpServerConfig.Http(
                        "calc", "http://127.0.0.1:9/mcp", Map.of("Authorization", "CALC_TOKEN")));
        assertThat(spec.dataset().suites()).containsExactly(Path.of("suite.jsonl"));
        assertThat(spec.dataset().resolved()).containsExactly(Path.of("/evals/suite.jsonl"));
        assertThat(spec.dataset().selection().limit()).isEqualTo(3);
        assertThat(spec.limits())
                .isEqualTo(new EvalSpec.Limits(8, Duration.ofSeconds(30), 2, WorkspacePolicy.KEEP_ALL));
        assertThat(spec.scoring())
                .isEqualTo(new EvalSpec.Scoring(
                        new Weights(Map.of("tool", 50.0, "logic", 10.0), Weights.Scoring.REFERENCE),
                        List.of("weighted-score"),
                        true));
        assertThat(spec.userId()).isEqualTo("ann");
        assertThat(spec.observed().sandbox()).isEqualTo("bubblewrap");
        assertThat(spec.observed().codeSandbox()).isEqualTo("unconfined");
        assertThat(spec.observed()
                        .tool("mcp")
                        .path("servers")
                        .get(0)
                        .path("status")
                        .asText())
                .isEqualTo("unavailable");
        assertThat(roundTrip(spec)).isEqualTo(spec);
    }

    @Test
    void a_version_1_run_resumes_from_where_its_suites_were() {
        EvalSpec resumed = EvalSpec.toResume(stored("r1", Json.parse(VERSION_1)));

        assertThat(resumed.dataset().suites()).containsExactly(Path.of("/evals/suite.jsonl"));
        assertThat(resumed.subject().sut()).isInstanceOf(EvalSpec.Model.class);
    }

    @Test
    void several_models_and_a_head_to_head_round_trip_and_resume_as_they_were_started() {
        EvalSpec several = new RunSettings()
                .suites(List.of(Path.of("suite.jsonl")))
                .models(List.of(
                        ModelOptions.of("openai:a"),
                        new ModelOptions("openai:b", "http://127.0.0.1:9/v1", "B_API_KEY", false, null, null)))
                .baseUrl("http://127.0.0.1:8/v1")
                .resolve();
        EvalSpec versus = new RunSettings()
                .suites(List.of(Path.of("suite.jsonl")))
                .model(ModelOptions.of("openai:a"))
                .versus(ModelOptions.of("openai:b"))
                .versusApiKeyEnv("B_API_KEY")
                .stopWhenDecided(true)
                .resolve();

        var models = (EvalSpec.Models) several.subject().sut();
        // The sources' base URL reaches the model that names none; the other keeps its own.
        assertThat(models.byLabel().get("openai:a").baseUrl()).isEqualTo("http://127.0.0.1:8/v1");
        assertThat(models.byLabel().get("openai:b").baseUrl()).isEqualTo("http://127.0.0.1:9/v1");
        assertThat(several.itemCount(3)).isEqualTo(6);
        assertThat(versus.subjectLabels()).containsExactly("openai:a", "openai:b");
        assertThat(((EvalSpec.Models) versus.subject().sut())
                        .byLabel()
                        .get("openai:b")
                        .apiKeyEnv())
                .isEqualTo("B_API_KEY");
        assertThat(versus.limits().stopRule()).isEqualTo(new EvalSpec.StopRule(0.05, 5));
        assertThat(versus.dataset().selection().seed())
                .as("a random order, kept")
                .isNotNull();
        for (EvalSpec spec : List.of(several, versus)) {
            assertThat(roundTrip(spec)).isEqualTo(spec);
            EvalSpec resumed = EvalSpec.toResume(stored("r5", Json.tree(spec)));
            assertThat(resumed.subject()).isEqualTo(spec.subject());
            assertThat(resumed.limits()).isEqualTo(spec.limits());
            assertThat(resumed.dataset().selection()).isEqualTo(spec.dataset().selection());
        }
        assertThat(Json.tree(several).path("models").get(1).path("label").asText())
                .isEqualTo("openai:b");
    }

    @Test
    void a_head_to_head_needs_two_models_and_distinct_names() {
        var base = new RunSettings().suites(List.of(Path.of("suite.jsonl")));
        assertThatThrownBy(() -> base.model(ModelOptions.of("openai:a"))
                        .stopWhenDecided(true)
                        .resolve())
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("config.invalid_versus"));
        assertThatThrownBy(() -> new RunSettings()
                        .suites(List.of(Path.of("suite.jsonl")))
                        .models(List.of(ModelOptions.of("openai:a"), ModelOptions.of("openai:a")))
                        .resolve())
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("config.duplicate_model"));
    }

    @Test
    void a_resumed_run_keeps_its_dataset_mapping_and_its_environment() {
        var mapping = new DatasetMapping("question", "answer", "exact", null, null, null, null);
        var environment = Json.MAPPER.createObjectNode().put("state", "shop://db");
        environment.putObject("mcp").putArray("command").add("python3").add("shop.py");
        EvalSpec spec = new RunSettings()
                .suites(List.of(Path.of("data.jsonl")))
                .model(ModelOptions.of("openai:m"))
                .dataset(mapping)
                .environment(environment)
                .resolve();

        EvalSpec resumed = EvalSpec.toResume(stored("r4", Json.tree(spec)));

        assertThat(resumed.dataset().mapping()).isEqualTo(spec.dataset().mapping());
        assertThat(resumed.dataset().environment()).isEqualTo(environment);
    }

    @Test
    void a_recordings_run_and_a_later_versions_run_are_not_resumable() {
        var replay = Json.parse("""
                {"spec_version": 1, "target": {"type": "replay", "file": "recording.jsonl"}, "suites": ["s.jsonl"]}
                """);
        var later = Json.object().put("spec_version", EvalSpec.VERSION + 1);

        for (JsonNode config : List.of(replay, later)) {
            assertThatThrownBy(() -> EvalSpec.toResume(stored("r2", config)))
                    .isInstanceOfSatisfying(
                            AssayException.class,
                            e -> assertThat(e.problem().type()).isEqualTo("run.not_resumable"));
        }
        assertThat(EvalSpec.read(replay).subject().sut()).isEqualTo(new EvalSpec.Replay(Path.of("recording.jsonl")));
    }

    @Test
    void an_agent_service_whose_url_held_credentials_is_stored_without_them_and_not_resumed() {
        EvalSpec spec = new RunSettings()
                .suites(List.of(Path.of("suite.jsonl")))
                .agentService(SseAgentSettings.of(URI.create("http://user:secret@127.0.0.1:9/run")))
                .resolve();

        String stored = Json.write(spec);

        assertThat(stored).doesNotContain("secret");
        assertThat(EvalSpec.read(Json.parse(stored)).subject().sut()).isInstanceOf(EvalSpec.Unrecorded.class);
        assertThatThrownBy(() -> EvalSpec.toResume(stored("r3", Json.parse(stored))))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("run.not_resumable"));
    }

    @Test
    void a_run_stored_without_a_snapshot_reads_as_assays_defaults() {
        EvalSpec spec = EvalSpec.read(null);

        assertThat(spec.limits()).isEqualTo(EvalSpec.Limits.DEFAULTS);
        assertThat(spec.scoring().weights()).isEqualTo(Weights.defaults());
        assertThat(spec.subject().sut()).isInstanceOf(EvalSpec.Unrecorded.class);
    }

    private static Run storedDialog(String runId, JsonNode description) {
        var config = Json.object();
        config.put("run_id", runId);
        if (description != null) {
            config.set(EvalSpec.DIALOG_KEY, description);
        }
        Run run = stored(runId, config);
        return new Run(
                run.runId(),
                RunKind.DIALOG,
                "bob",
                run.modelName(),
                run.language(),
                run.status(),
                run.caseSet(),
                run.caseSetVersion(),
                run.config(),
                run.toolSnapshot(),
                run.dimensionScores(),
                run.totalScore(),
                run.counts(),
                run.startedAt(),
                run.finishedAt(),
                run.elapsedS(),
                run.error());
    }

    @Test
    void a_dialog_runs_old_description_is_read_as_its_spec_and_written_back_unchanged() {
        EvalSpec spec = EvalSpec.toResume(storedDialog("d1", Json.parse(DIALOG_VERSION_1)));

        EvalSpec.Dialogs dialogs = spec.dataset().dialogs();
        assertThat(dialogs.name()).isEqualTo("data/dialogs.jsonl");
        assertThat(dialogs.file()).isEqualTo(Path.of("/data/dialogs.jsonl"));
        assertThat(dialogs.runDirectory()).isEqualTo(Path.of("/runs/dialog/d1"));
        assertThat(dialogs.systemPrompt()).isEqualTo("Be brief.");
        assertThat(dialogs.promptVersion()).isEqualTo("v3");
        assertThat(dialogs.turnRetries()).isZero();
        assertThat(dialogs.score()).isEqualTo(new ScoreOptions(MetricsProfile.CORRECTED, true));
        assertThat(dialogs.judge().model().model()).isEqualTo("openai:judge");
        assertThat(dialogs.judge().workers()).isEqualTo(3);
        assertThat(dialogs.fieldMapping()).isNull();
        assertThat(spec.dataset().suites()).isEmpty();
        assertThat(((EvalSpec.Model) spec.subject().sut()).options().model()).isEqualTo("openai:gpt-test");
        assertThat(spec.subject().agent().temperature()).isNull();
        assertThat(spec.subject().agent().seed()).isEqualTo(7L);
        assertThat(spec.limits().concurrency()).isEqualTo(2);
        assertThat(spec.limits().timeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(spec.userId()).isEqualTo("ann");
        // As the store keeps it: the same text, key for key.
        assertThat(Json.write(spec.toJson())).isEqualTo(Json.write(Json.parse(DIALOG_VERSION_1)));
        assertThat(EvalSpec.of(storedDialog("d1", Json.parse(DIALOG_VERSION_1))))
                .isEqualTo(spec);
    }

    @Test
    void a_dialog_spec_of_each_system_under_test_is_equal_after_a_json_round_trip() {
        var dialogs = new EvalSpec.Dialogs(
                "dialogs.jsonl", Path.of("dialogs.jsonl"), Path.of("runs/dialog/d2"), "", "", null, 1, null, null);
        EvalSpec chat = new RunSettings()
                .dialogs(dialogs)
                .model(ModelOptions.of("openai:gpt-test"))
                .temperature(0.2)
                .resolve();
        EvalSpec agent = new RunSettings()
                .dialogs(dialogs)
                .agentService(new SseAgentSettings(
                        URI.create("http://127.0.0.1:9/chat"),
                        null,
                        "",
                        "",
                        List.of(),
                        null,
                        null,
                        null,
                        "AGENT_TOKEN",
                        false,
                        null,
                        null,
                        RetryPolicy.defaults(),
                        1))
                .userId("ann")
                .resolve();

        assertThat(roundTrip(chat)).isEqualTo(chat);
        assertThat(roundTrip(agent)).isEqualTo(agent);
        assertThat(chat.limits().concurrency()).isEqualTo(EvalSpec.Dialogs.DEFAULT_CONCURRENCY);
        assertThat(chat.limits().timeout()).isEqualTo(EvalSpec.Limits.DEFAULT_TIMEOUT);
        assertThat(chat.dataset().dialogs().fieldMapping()).isNull();
        assertThat(agent.dataset().dialogs().fieldMapping()).isEqualTo(FieldMapping.defaults());
        assertThat(agent.toJson().has("temperature")).isFalse();
        assertThat(agent.toJson().path("field_mapping").path("recall").asText()).isEqualTo("/recall");
        assertThat(chat.toJson().has("temperature")).isTrue();
        assertThat(chat.toJson().has("agent")).isFalse();
    }

    @Test
    void a_dialog_run_without_its_description_or_of_another_version_is_not_resumable() {
        var later = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(DIALOG_VERSION_1);
        later.put("spec_version", 2);

        for (Run run : List.of(storedDialog("d3", null), storedDialog("d4", later))) {
            assertThatThrownBy(() -> EvalSpec.toResume(run))
                    .isInstanceOfSatisfying(
                            AssayException.class,
                            e -> assertThat(e.problem().type()).isEqualTo("run.not_resumable"));
        }
    }

    @Test
    void a_dialog_run_is_replayed_by_a_model_or_an_agent_service_only() {
        var dialogs = new EvalSpec.Dialogs(
                "dialogs.jsonl", Path.of("dialogs.jsonl"), Path.of("runs/dialog/d5"), "", "", null, 1, null, null);

        assertThatThrownBy(() -> new RunSettings()
                        .dialogs(dialogs)
                        .replay(Path.of("run.jsonl"))
                        .resolve())
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("config.invalid_subject"));
    }
}
