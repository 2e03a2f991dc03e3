package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.sandbox.BubblewrapSandbox;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodeCommandTest {
    private static final Path EXAMPLES = Path.of("..", "examples", "code");

    @TempDir
    Path dir;

    private record Ran(int exitCode, String out) {}

    private static Ran run(String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        var line = new String[args.length + 1];
        line[0] = "code";
        System.arraycopy(args, 0, line, 1, args.length);
        int code = AssayCli.run(new PrintWriter(out), new PrintWriter(err), java.util.Map.of(), line);
        return new Ran(code, out + err.toString());
    }

    @Test
    void extract_json_prints_one_object_per_question() throws Exception {
        Path file = dir.resolve("q.jsonl");
        Files.writeString(file, """
                {"id": "a", "prompt": "Example 1:\\nInput: nums = [1,2], k = 1\\nOutput: 3\\nExample 2:\\nInput: x\\nOutput: 1"}
                {"id": "b", "prompt": "no examples"}
                """);

        var outcome = run("extract", file.toString(), "--json");

        List<JsonNode> lines = outcome.out().lines().map(Json::parse).toList();
        assertThat(outcome.exitCode()).isZero();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).get("id").asText()).isEqualTo("a");
        assertThat(lines.get(0).get("status").asText()).isEqualTo("partial");
        assertThat(lines.get(0).at("/examples/0/input")).isEqualTo(Json.parse("{\"nums\":[1,2],\"k\":1}"));
        assertThat(lines.get(0).at("/examples/0/label").asText()).isEqualTo("Example 1");
        assertThat(lines.get(0).at("/examples/1/status").asText()).isEqualTo("unsupported");
        assertThat(lines.get(0).at("/examples/1/reason").asText()).isNotEmpty();
        assertThat(lines.get(1).get("status").asText()).isEqualTo("none");
        assertThat(lines.get(0).get("examples").get(0).fieldNames())
                .toIterable()
                .containsExactly("label", "input", "expected", "status", "reason");
    }

    @Test
    void extract_reads_the_example_suite_and_lists_every_question() {
        var outcome = run("extract", EXAMPLES.toString());

        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.out()).contains("code-two-sum-zh: ok", "code-min-stack-zh: ok");
    }

    @Test
    void extract_of_a_missing_file_cannot_run() {
        assertThat(run("extract", dir.resolve("absent.json").toString()).exitCode())
                .isEqualTo(3);
    }

    @Test
    void every_example_question_passes_with_its_reference_solution() throws InterruptedException {
        Assumptions.assumeTrue(BubblewrapSandbox.find().isPresent(), "bubblewrap is not usable on this machine");

        var outcome = run("verify", EXAMPLES.toString());

        assertThat(outcome.out()).doesNotContain("FAILED").doesNotContain("skipped");
        assertThat(outcome.exitCode()).as(outcome.out()).isZero();
    }
}
