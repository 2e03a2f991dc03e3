package dev.assay.sandbox.container;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/container-task run through the engine with a scripted agent, in its own image: the fix passes, no fix fails,
 * and the runs leave no container behind.
 */
class ContainerExampleTest {
    private static final Path EXAMPLE = Path.of("../examples/container-task");
    private static final String IMAGE = "localhost/assay-example/calc:1";
    private static final String PROMPT_START = "The repository in your workspace has failing tests";

    @TempDir
    Path temp;

    private dev.assay.sandbox.container.Engine engine;

    @BeforeEach
    void image() throws IOException {
        engine = TestEngine.require();
        var files = new HashMap<String, byte[]>();
        files.put("etc/image-marker", "calc-image\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        for (String file : List.of("calc.sh", "README.md", "tests/test_calc.sh")) {
            files.put("repo/" + file, Files.readAllBytes(EXAMPLE.resolve("repo").resolve(file)));
        }
        TestEngine.image(engine, IMAGE, files);
    }

    private List<Item> items;

    private Run run(Path suite, ScriptedOpenAiServer server, int concurrency) throws Exception {
        var ran = TestEngine.run(engine, suite, server, concurrency, temp);
        items = ran.items();
        return ran.run();
    }

    @Test
    void anAgentThatFixesTheBugPassesAndItsCommandsSeeTheImagesUserland() throws Exception {
        var script = ScriptedOpenAiServer.byPrompt(
                Map.of(
                        PROMPT_START,
                        List.of(
                                calls(Call.of("execute_command", "{\"command\": \"cat /etc/image-marker\"}")),
                                calls(Call.of(
                                        "execute_command",
                                        "{\"command\": \"sed -i 's/\\\\$1 - \\\\$2/$1 + $2/' calc.sh\"}")),
                                text("fixed"))),
                r -> text("?"));
        try (var server = ScriptedOpenAiServer.start(script)) {
            Run run = run(EXAMPLE.resolve("suite.json"), server, 1);

            Item item = items.getFirst();
            assertThat(item.status()).as(String.valueOf(item.checkerDetail())).isEqualTo(ItemStatus.PASSED);
            assertThat(item.transcript().toString()).contains("calc-image");
            assertThat(TestEngine.containersLabelled(engine, dev.assay.sandbox.container.Engine.RUN_LABEL, run.runId()))
                    .isZero();
        }
    }

    @Test
    void anAgentThatLeavesTheBugFails() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("all good")))) {
            run(EXAMPLE.resolve("suite.json"), server, 1);

            Item item = items.getFirst();
            assertThat(item.status()).isEqualTo(ItemStatus.FAILED);
            assertThat(item.checkerDetail().toString())
                    .contains("command.exit_code")
                    .contains("FAIL add 2 3");
        }
    }

    @Test
    void fiftyTrialsFourAtATimeLeaveNoContainerBehind() throws Exception {
        String cases = IntStream.range(0, 50)
                .mapToObj(
                        i -> "{\"id\": \"t" + i + "\", \"dimension\": \"complex\", \"prompt\": \"Say done " + i
                                + ".\", \"checker\": \"command\", \"expected\": {\"command\": [\"sh\", \"-c\", \"test -f calc.sh\"]}}")
                .collect(Collectors.joining(",\n"));
        Path suite = temp.resolve("fifty.json");
        Files.writeString(
                suite,
                "{\"sandbox\": {\"image\": \"" + IMAGE + "\", \"workdir\": \"/repo\"}, \"cases\": [\n" + cases
                        + "\n]}");
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("done")))) {
            Run run = run(suite, server, 4);

            assertThat(items)
                    .hasSize(50)
                    .allSatisfy(item -> assertThat(item.status())
                            .as(String.valueOf(item.error()))
                            .isEqualTo(ItemStatus.PASSED));
            assertThat(TestEngine.containersLabelled(engine, dev.assay.sandbox.container.Engine.RUN_LABEL, run.runId()))
                    .isZero();
        }
    }
}
