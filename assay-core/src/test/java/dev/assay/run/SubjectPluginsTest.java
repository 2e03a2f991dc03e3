package dev.assay.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ModelOptions;
import dev.assay.run.internal.WeightedScore;
import dev.assay.tools.McpServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Systems under test, tool providers and metrics found by name: a name nobody registered stops the run before it
 * starts, listing the known names, instead of running without what the user asked for.
 */
class SubjectPluginsTest {
    @TempDir
    Path temp;

    private Prepared prepare(RunSettings settings) throws Exception {
        Path suite = Files.writeString(temp.resolve("suite.jsonl"), """
                {"id": "a", "dimension": "common", "prompt": "hi", "checker": "contains", "expected": "hi"}
                """);
        return settings.suites(List.of(suite))
                .resolve()
                .prepare(null, temp.resolve("work"), CheckerRegistry.builtins(), name -> null, line -> {});
    }

    @Test
    void an_unknown_subject_is_plugin_unknown_naming_the_known_ones() {
        assertThatThrownBy(() -> prepare(new RunSettings().subject("nosuch:arg")))
                .isInstanceOfSatisfying(AssayException.class, e -> {
                    assertThat(e.problem().type()).isEqualTo("plugin.unknown");
                    assertThat(e.problem().details()).containsEntry("field", "subject");
                    assertThat(e.problem().message()).contains("agent", "sse", "replay");
                });
    }

    @Test
    void a_builtin_subject_is_not_named_with_subject() {
        assertThatThrownBy(() -> prepare(new RunSettings().subject("replay")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("config.invalid_subject"));
    }

    @Test
    void an_unknown_metric_is_plugin_unknown_before_the_run_starts() {
        var settings = new RunSettings().model(ModelOptions.of("mock")).metrics(List.of("nosuch"));

        assertThatThrownBy(() -> prepare(settings)).isInstanceOfSatisfying(AssayException.class, e -> {
            assertThat(e.problem().type()).isEqualTo("plugin.unknown");
            assertThat(e.problem().details()).containsEntry("field", "metrics");
            assertThat(e.problem().message()).contains(WeightedScore.NAME);
        });
    }

    @Test
    void the_metrics_a_run_names_are_read_back_from_its_snapshot() throws Exception {
        try (var prepared =
                prepare(new RunSettings().model(ModelOptions.of("mock")).metrics(List.of("weighted-score")))) {
            EvalSpec back =
                    EvalSpec.read(Json.parse(Json.write(prepared.plan().config().spec())));

            assertThat(back.scoring().metrics()).containsExactly("weighted-score");
            assertThat(new CaseWorkload(prepared.plan()).metrics()).containsExactly("weighted-score");
        }
    }

    /** assay-core alone has no MCP client (assay-mcp has): MCP servers are then refused, not silently dropped. */
    @Test
    void mcp_servers_without_the_mcp_tool_provider_are_plugin_unknown() {
        var settings = new RunSettings()
                .model(ModelOptions.of("mock"))
                .mcpServers(List.of(new McpServerConfig.Http("calc", "http://127.0.0.1:9/mcp", Map.of())));

        assertThatThrownBy(() -> prepare(settings)).isInstanceOfSatisfying(AssayException.class, e -> {
            assertThat(e.problem().type()).isEqualTo("plugin.unknown");
            assertThat(e.problem().details()).containsEntry("field", "mcp_servers");
        });
    }
}
