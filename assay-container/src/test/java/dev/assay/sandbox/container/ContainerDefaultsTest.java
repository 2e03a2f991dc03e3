package dev.assay.sandbox.container;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.config.AssayConfig;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunSettings;
import dev.assay.sandbox.Sandboxes;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code defaults.sandbox} of assay.yaml: the engine and the container of the cases that name none, kept in the run's
 * spec so that a resumed run has them too.
 */
class ContainerDefaultsTest {
    @TempDir
    Path temp;

    private Engine engine;

    @BeforeEach
    void engine() throws Exception {
        engine = TestEngine.require();
    }

    private EvalSpec spec(Path suite, ScriptedOpenAiServer server) throws Exception {
        Path yaml = temp.resolve("assay.yaml");
        Files.writeString(yaml, """
                version: 1
                defaults:
                  sandbox: {engine: %s, image: "%s", workdir: /repo, memory_mb: 128}
                """.formatted(engine.name(), TestEngine.IMAGE));
        RunSettings flags = new RunSettings()
                .suites(List.of(suite))
                .model(new ModelOptions("openai:scripted", server.baseUrl(), null, false, null, RetryPolicy.none()));
        return RunSettings.resolve(List.of(AssayConfig.load(yaml).settings(null), flags));
    }

    @Test
    void aCaseThatNamesNoImageRunsInTheConfiguredOneAndTheSpecKeepsIt() throws Exception {
        Path suite = temp.resolve("plain.json");
        Files.writeString(suite, """
                [{"id": "where", "dimension": "complex", "prompt": "Look around.",
                  "checker": "command", "expected": {"command": "cat /etc/image-marker README"}},
                 {"id": "own", "dimension": "complex", "prompt": "Look around.",
                  "sandbox": {"image": "%s"},
                  "checker": "command", "expected": {"command": "test \\"$(pwd)\\" = /workspace"}}]
                """.formatted(TestEngine.IMAGE));
        var script = ScriptedOpenAiServer.always(text("looked"));
        try (var server = ScriptedOpenAiServer.start(script)) {
            EvalSpec spec = spec(suite, server);

            assertThat(spec.subject().tools().containerEngine()).isEqualTo(engine.name());
            assertThat(spec.dataset().container())
                    .isEqualTo(Json.parse(
                            "{\"image\": \"" + TestEngine.IMAGE + "\", \"workdir\": \"/repo\", \"memory_mb\": 128}"));
            EvalSpec stored = EvalSpec.read(Json.parse(Json.write(spec)));
            assertThat(stored).isEqualTo(spec);

            List<Item> items = TestEngine.run(stored, temp, Sandboxes.ISOLATING).items();

            assertThat(items)
                    .allSatisfy(item -> assertThat(item.status())
                            .as(item.caseId() + ": " + item.checkerDetail())
                            .isEqualTo(ItemStatus.PASSED));
            assertThat(items.stream()
                            .filter(item -> item.caseId().equals("where"))
                            .findFirst()
                            .orElseThrow()
                            .checkerDetail()
                            .toString())
                    .contains(TestEngine.MARKER, "a repository inside the image");
        }
    }
}
