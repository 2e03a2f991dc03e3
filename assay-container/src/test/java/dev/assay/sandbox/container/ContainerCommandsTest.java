package dev.assay.sandbox.container;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.run.RunSettings;
import dev.assay.sandbox.Sandboxes;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a host where bubblewrap is not usable, execute_command is still offered to the cases that name an image, whose
 * commands run in their container; a case that names none and needs it is skipped as before.
 */
class ContainerCommandsTest {
    /** This host, as far as the run can tell, has no bubblewrap. */
    private static final Sandboxes.Finder NO_BUBBLEWRAP = Optional::empty;

    @TempDir
    Path temp;

    private Engine engine;

    @BeforeEach
    void engine() throws Exception {
        engine = TestEngine.require();
    }

    @Test
    void aCaseInAContainerIsOfferedCommandsWithoutBubblewrap() throws Exception {
        Path suite = temp.resolve("commands.json");
        Files.writeString(suite, """
                [{"id": "in-image", "dimension": "tool", "prompt": "Read the marker.",
                  "sandbox": {"image": "%s"}, "checker": "contains", "expected": "%s"},
                 {"id": "on-host", "dimension": "tool", "prompt": "Run something.",
                  "prerequisites": ["execute_command"], "checker": "contains", "expected": "x"}]
                """.formatted(TestEngine.IMAGE, TestEngine.MARKER));
        var script = ScriptedOpenAiServer.byPrompt(
                Map.of(
                        "Read the marker.",
                        List.of(
                                calls(Call.of("execute_command", "{\"command\": \"cat /etc/image-marker\"}")),
                                text("the marker says " + TestEngine.MARKER))),
                request -> text("nothing"));
        try (var server = ScriptedOpenAiServer.start(script)) {
            var spec = new RunSettings()
                    .suites(List.of(suite))
                    .model(new ModelOptions("openai:scripted", server.baseUrl(), null, false, null, RetryPolicy.none()))
                    .sandbox(engine.name())
                    .resolve();

            List<Item> items = TestEngine.run(spec, temp, NO_BUBBLEWRAP).items();

            Item inImage = items.stream()
                    .filter(item -> item.caseId().equals("in-image"))
                    .findFirst()
                    .orElseThrow();
            assertThat(inImage.status()).as(String.valueOf(inImage.error())).isEqualTo(ItemStatus.PASSED);
            // The marker came from the command's output, which only the image has.
            assertThat(inImage.transcript().toString()).contains("exit_code: 0", TestEngine.MARKER);
            Item onHost = items.stream()
                    .filter(item -> item.caseId().equals("on-host"))
                    .findFirst()
                    .orElseThrow();
            assertThat(onHost.status()).isEqualTo(ItemStatus.SKIPPED);
            assertThat(onHost.error().type()).isEqualTo("sandbox.unavailable");
        }
    }
}
