package dev.assay.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.check.judge.JudgeConfig;
import dev.assay.model.ModelOptions;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunSettings;
import dev.assay.score.Weights;
import dev.assay.subject.ToolMode;
import dev.assay.tools.McpServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AssayConfigTest {
    /** The example of docs/configuration.md; keep the two in step. */
    static final String EXAMPLE = """
            version: 1
            defaults:
              target: local
              concurrency: 8
              timeout_s: 90
              weights: {tool: 40, logic: 20}
              db: jdbc:sqlite:.assay/assay.db
            targets:
              local:
                model: openai:qwen2.5:7b
                base_url: http://localhost:11434/v1
                api_key_env: OLLAMA_API_KEY
                tool_mode: text
                max_steps: 12
                temperature: 0
                seed: 7
                mcp: [files]
              gpt:
                model: openai:gpt-4o-mini
            mcp_servers:
              files:
                command: npx
                args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp/share"]
                env: [FILES_ROOT]
              github:
                url: https://mcp.example.com/mcp
                headers:
                  Authorization: GITHUB_MCP_AUTH
            judges:
              default:
                model: openai:gpt-4o-mini
                api_key_env: OPENAI_API_KEY
                timeout_s: 60
              strict:
                model: openai:gpt-4o
            """;

    @TempDir
    Path temp;

    private Path write(String yaml) throws Exception {
        Path file = temp.resolve("assay.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private Problem problem(String yaml) throws Exception {
        Path file = write(yaml);
        try {
            AssayConfig.load(file);
        } catch (AssayException e) {
            return e.problem();
        }
        throw new AssertionError("expected the configuration to be refused");
    }

    @Test
    void example_configuration_loads_targets_servers_judges_and_defaults() throws Exception {
        AssayConfig config = AssayConfig.load(write(EXAMPLE));
        assertThat(config.subjects()).containsOnlyKeys("local", "gpt");
        SubjectConfig local = config.subject("local");
        assertThat(local.model().model()).isEqualTo("openai:qwen2.5:7b");
        assertThat(local.model().baseUrl()).isEqualTo("http://localhost:11434/v1");
        assertThat(local.model().apiKeyEnv()).isEqualTo("OLLAMA_API_KEY");
        assertThat(local.agent().toolMode()).isEqualTo(ToolMode.TEXT);
        assertThat(local.agent().maxSteps()).isEqualTo(12);
        assertThat(local.agent().seed()).isEqualTo(7L);
        assertThat(config.mcpServersFor(local))
                .extracting(McpServerConfig::name)
                .containsExactly("files");
        assertThat(config.mcpServersFor(config.subject("gpt"))).hasSize(2);
        assertThat(config.mcpServers().get(0))
                .isEqualTo(new McpServerConfig.Stdio(
                        "files",
                        "npx",
                        List.of("-y", "@modelcontextprotocol/server-filesystem", "/tmp/share"),
                        List.of("FILES_ROOT")));
        assertThat(config.mcpServers().get(1))
                .isEqualTo(new McpServerConfig.Http(
                        "github", "https://mcp.example.com/mcp", Map.of("Authorization", "GITHUB_MCP_AUTH")));
        assertThat(config.judges()).extracting(JudgeConfig::name).containsExactly("default", "strict");
        assertThat(config.judges().getFirst().timeout()).isEqualTo(Duration.ofSeconds(60));
        EvalSpec spec = underARun(config);
        assertThat(spec.limits().concurrency()).isEqualTo(8);
        assertThat(spec.limits().timeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(spec.scoring().weights().byDimension())
                .containsEntry("tool", 40.0)
                .containsEntry("logic", 20.0)
                .containsEntry("common", 20.0);
        assertThat(spec.scoring().judges()).isEqualTo(config.judges());
        assertThat(config.defaultSubject()).isEqualTo("local");
        assertThat(config.database()).isEqualTo("jdbc:sqlite:.assay/assay.db");
    }

    @Test
    void a_scoring_preset_in_the_defaults_gives_its_weights_under_the_given_ones() throws Exception {
        AssayConfig config = AssayConfig.load(write("defaults:\n  scoring: reference\n  weights: {logic: 40}\n"));

        Weights weights = underARun(config).scoring().weights();
        assertThat(weights.scoring()).isEqualTo(Weights.Scoring.REFERENCE);
        assertThat(weights.byDimension())
                .containsEntry("tool", 30.0)
                .containsEntry("logic", 40.0)
                .containsEntry("common", 15.0);
        assertThatThrownBy(() -> AssayConfig.load(write("defaults:\n  scoring: wunder\n")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().message()).contains("scoring"));
    }

    @Test
    void empty_file_is_an_empty_configuration() throws Exception {
        AssayConfig config = AssayConfig.load(write(""));
        assertThat(config.subjects()).isEmpty();
        assertThat(config.defaultSubject()).isNull();
        assertThat(config.database()).isNull();
        assertThat(underARun(config)).isEqualTo(aRun().resolve());
    }

    @Test
    void the_defaults_models_name_what_to_evaluate_unless_a_target_is_named() throws Exception {
        AssayConfig config = AssayConfig.load(write(EXAMPLE.replace("  target: local\n", "  models: [gpt, mock]\n")));

        assertThat(config.defaults().namesSubject()).isTrue();
        EvalSpec spec = RunSettings.resolve(
                List.of(config.settings(null), new RunSettings().suites(List.of(Path.of("suite.jsonl")))));
        assertThat(spec.subjectLabels()).containsExactly("openai:gpt-4o-mini", "mock");
        EvalSpec targeted = RunSettings.resolve(
                List.of(config.settings("local"), new RunSettings().suites(List.of(Path.of("suite.jsonl")))));
        assertThat(((EvalSpec.Model) targeted.subject().sut()).options().model())
                .isEqualTo("openai:qwen2.5:7b");
    }

    @Test
    void the_defaults_given_out_are_a_copy_the_caller_may_change() throws Exception {
        AssayConfig config = AssayConfig.load(write(EXAMPLE));

        config.settings(null).concurrency(1);
        config.defaults().concurrency(2);

        assertThat(underARun(config).limits().concurrency()).isEqualTo(8);
    }

    /** {@return a run of one suite by a mock model, all else from the file's defaults} */
    private static EvalSpec underARun(AssayConfig config) {
        return RunSettings.resolve(List.of(config.settings(null), aRun()));
    }

    private static RunSettings aRun() {
        return new RunSettings().suites(List.of(Path.of("suite.jsonl"))).model(ModelOptions.of("mock"));
    }

    @Test
    void literal_api_key_is_refused_naming_file_line_and_field() throws Exception {
        Problem problem = problem("""
                targets:
                  gpt:
                    model: openai:gpt-4o-mini
                    api_key: abc123
                """);
        assertThat(problem.type()).isEqualTo("config.secret");
        assertThat(problem.details())
                .containsEntry("line", 4)
                .containsEntry("field", "targets.gpt.api_key")
                .containsEntry("file", temp.resolve("assay.yaml").toString());
    }

    @Test
    void key_pasted_into_an_env_name_field_is_refused_without_echoing_it() throws Exception {
        Problem problem = problem("""
                targets:
                  gpt:
                    model: openai:gpt-4o-mini
                    api_key_env: sk-proj-abcdefghijklmnopqrstuvwx
                """);
        assertThat(problem.type()).isEqualTo("config.secret");
        assertThat(problem.details()).containsEntry("field", "targets.gpt.api_key_env");
        assertThat(problem.message()).doesNotContain("abcdefghijklmnop");
    }

    @Test
    void token_inside_server_arguments_is_refused() throws Exception {
        Problem problem = problem("""
                mcp_servers:
                  gh:
                    command: gh-mcp
                    args: ["--token", "ghp_abcdefghijklmnopqrstuvwxyz0123"]
                """);
        assertThat(problem.type()).isEqualTo("config.secret");
        assertThat(problem.details())
                .containsEntry("field", "mcp_servers.gh.args.1")
                .containsEntry("line", 4);
    }

    @Test
    void literal_value_in_a_header_is_refused() throws Exception {
        Problem problem = problem("""
                mcp_servers:
                  gh:
                    url: https://mcp.example.com/mcp
                    headers:
                      Authorization: Bearer abcdefghijklmnopqrstuvwxyz
                """);
        assertThat(problem.type()).isEqualTo("config.secret");
        assertThat(problem.details())
                .containsEntry("field", "mcp_servers.gh.headers.Authorization")
                .containsEntry("line", 5);
    }

    @Test
    void unknown_field_is_refused_with_its_line() throws Exception {
        Problem problem = problem("""
                version: 1
                targets:
                  gpt:
                    model: openai:gpt-4o-mini
                    temprature: 0.2
                """);
        assertThat(problem.type()).isEqualTo("config.invalid");
        assertThat(problem.details()).containsEntry("line", 5).containsEntry("field", "targets.gpt.temprature");
    }

    @Test
    void wrong_type_names_the_field() throws Exception {
        Problem problem = problem("""
                defaults:
                  concurrency: many
                """);
        assertThat(problem.details()).containsEntry("line", 2).containsEntry("field", "defaults.concurrency");
    }

    @Test
    void server_with_both_command_and_url_is_refused() throws Exception {
        Problem problem = problem("""
                mcp_servers:
                  both:
                    command: x
                    url: http://localhost:1/mcp
                """);
        assertThat(problem.details()).containsEntry("field", "mcp_servers.both").containsEntry("line", 2);
    }

    @Test
    void target_naming_an_unknown_mcp_server_is_refused() throws Exception {
        Problem problem = problem("""
                targets:
                  gpt:
                    model: openai:gpt-4o-mini
                    mcp: [nope]
                """);
        assertThat(problem.details()).containsEntry("field", "targets.gpt.mcp.0");
    }

    @Test
    void invalid_tool_mode_is_refused() throws Exception {
        Problem problem = problem("""
                targets:
                  gpt:
                    model: openai:gpt-4o-mini
                    tool_mode: smoke
                """);
        assertThat(problem.details())
                .containsEntry("field", "targets.gpt.tool_mode")
                .containsEntry("line", 4);
    }

    @Test
    void yaml_alias_reads_as_the_anchored_value() throws Exception {
        AssayConfig config = AssayConfig.load(write("""
                targets:
                  a:
                    model: openai:gpt-4o-mini
                    base_url: &local http://localhost:11434/v1
                  b:
                    model: openai:qwen2.5:7b
                    base_url: *local
                """));

        assertThat(config.subject("b").model().baseUrl()).isEqualTo("http://localhost:11434/v1");
    }

    @Test
    void yaml_billion_laughs_is_refused_naming_the_line() throws Exception {
        Problem problem = problem(dev.assay.testing.HostileYaml.BILLION_LAUGHS);

        assertThat(problem.type()).isEqualTo("config.invalid");
        assertThat(problem.message()).contains("billion laughs");
        assertThat((Integer) problem.details().get("line")).isBetween(2, 10);
    }

    @Test
    void yaml_syntax_error_names_the_line() throws Exception {
        Problem problem = problem("""
                targets:
                  gpt:
                    model: [unclosed
                """);
        assertThat(problem.type()).isEqualTo("config.invalid");
        assertThat((Integer) problem.details().get("line")).isGreaterThanOrEqualTo(3);
    }

    @Test
    void missing_file_is_config_not_found() {
        assertThatThrownBy(() -> AssayConfig.load(temp.resolve("absent.yaml")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("config.not_found"));
    }

    @Test
    void unknown_target_name_lists_the_known_ones() throws Exception {
        AssayConfig config = AssayConfig.load(write(EXAMPLE));
        assertThatThrownBy(() -> config.subject("nope"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("config.unknown_target"));
    }

    @Test
    void judges_connect_through_the_configured_model_kinds() throws Exception {
        AssayConfig config = AssayConfig.load(write("""
                judges:
                  offline:
                    model: mock
                """));
        assertThat(config.judges().stream()
                        .map(judge -> judge.connect(name -> null, line -> {}))
                        .toList())
                .singleElement()
                .satisfies(judge -> assertThat(judge.model().name()).isEqualTo("mock"));
    }

    @Test
    void agent_service_and_replay_targets_are_read() throws Exception {
        AssayConfig config = AssayConfig.load(write("""
                version: 1
                targets:
                  svc:
                    agent:
                      url: http://localhost:8000/wunder
                      tools: [read_file, write_file]
                      auth_env: AGENT_TOKEN
                      events: {final: done}
                      paths: {final.answer: /result/text}
                  short:
                    agent: http://localhost:9000/agent
                  old:
                    replay: recordings/run.jsonl
                """));
        var svc = config.subject("svc");
        assertThat(svc.model()).isNull();
        assertThat(svc.agentService().url().toString()).isEqualTo("http://localhost:8000/wunder");
        assertThat(svc.agentService().tools()).containsExactly("read_file", "write_file");
        assertThat(svc.agentService().authEnv()).isEqualTo("AGENT_TOKEN");
        assertThat(svc.agentService().describe().toString()).contains("done");
        assertThat(config.subject("short").agentService().url().getPort()).isEqualTo(9000);
        assertThat(config.subject("old").replay())
                .isEqualTo(temp.resolve("recordings/run.jsonl").toAbsolutePath());
        assertThat(config.mcpServersFor(svc)).isEmpty();
    }

    @Test
    void a_target_with_both_a_model_and_an_agent_is_refused_with_its_line() throws Exception {
        Problem problem = problem("""
                version: 1
                targets:
                  both:
                    model: mock
                    agent: http://localhost:8000/wunder
                """);
        assertThat(problem.type()).isEqualTo("config.invalid");
        assertThat(problem.details()).containsEntry("line", 3).containsEntry("field", "targets.both");
    }

    @Test
    void an_agent_url_that_is_not_http_is_refused_naming_the_field() throws Exception {
        Problem problem = problem("""
                targets:
                  svc:
                    agent: ftp://example.org/x
                """);
        assertThat(problem.details()).containsEntry("field", "targets.svc.agent");
    }
}
