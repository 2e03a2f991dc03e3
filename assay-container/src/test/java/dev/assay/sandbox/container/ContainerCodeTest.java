package dev.assay.sandbox.container;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A code question that names an image: the model's code runs in the trial's container with the image's interpreter. The
 * image's {@code python3} is a toy only that image has (it answers 1000 plus the number the solution returns), so a
 * pass proves where the code ran: real Python would give the number itself.
 */
class ContainerCodeTest {
    private static final String IMAGE = "localhost/assay-test/toy-python:1";
    private static final String TOY_PYTHON = """
            #!/bin/sh
            read -r config
            nonce=$(echo "$config" | sed 's/.*"nonce":"\\([0-9a-f]*\\)".*/\\1/')
            n=$(sed -n 's/.*return \\([0-9]*\\).*/\\1/p' solution.py | head -n 1)
            echo "$nonce {\\"i\\":0,\\"status\\":\\"ok\\",\\"actual\\":$((n + 1000))}"
            echo "$nonce {\\"end\\":true}"
            """;

    @TempDir
    Path temp;

    private Engine engine;

    @BeforeEach
    void image() throws Exception {
        engine = TestEngine.require();
        TestEngine.image(engine, IMAGE, Map.of("usr/bin/python3", TOY_PYTHON.getBytes(StandardCharsets.UTF_8)));
    }

    private Item grade(String answer) throws Exception {
        Path suite = temp.resolve("code.json");
        Files.writeString(suite, """
                {"sandbox": {"image": "%s"},
                 "cases": [{"id": "seven", "dimension": "code", "prompt": "Write f(a) returning 1007.",
                            "entry_point": "f", "test_cases": [{"input": {"a": 1}, "expected": 1007}],
                            "checker": "code"}]}
                """.formatted(IMAGE));
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text(answer)))) {
            return TestEngine.run(engine, suite, server, 1, temp).items().getFirst();
        }
    }

    @Test
    void theModelsCodeRunsWithTheImagesInterpreter() throws Exception {
        Item item = grade("```python\ndef f(a):\n    return 7\n```");

        assertThat(item.status()).as(String.valueOf(item.checkerDetail())).isEqualTo(ItemStatus.PASSED);
        assertThat(item.checkerDetail().toString()).contains("\"sandbox\":\"" + engine.name() + "\"");
    }

    @Test
    void aWrongAnswerInTheImageFailsAsInBubblewrap() throws Exception {
        Item item = grade("```python\ndef f(a):\n    return 8\n```");

        assertThat(item.status()).isEqualTo(ItemStatus.FAILED);
        assertThat(item.checkerDetail().toString())
                .contains("code.wrong_answer")
                .contains("1008");
    }
}
