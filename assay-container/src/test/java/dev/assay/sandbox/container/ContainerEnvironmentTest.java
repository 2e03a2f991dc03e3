package dev.assay.sandbox.container;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A case with an environment and an image: its MCP server runs in a container of its own made from the image, with the
 * case file's directory, and the agent's container never sees that directory.
 */
class ContainerEnvironmentTest {
    /**
     * A stdio MCP server in busybox sh: fixed answers to initialize, tools/list, tools/call of read_marker (which reads
     * the file only the image has and remembers it was called) and resources/read of its state.
     */
    private static final String SERVER = """
            read_marker=false
            while IFS= read -r line; do
              id=$(echo "$line" | sed -nE 's/.*"id":("[^"]*"|[0-9]+).*/\\1/p')
              [ -z "$id" ] && continue
              case "$line" in
                *'"method":"initialize"'*)
                  result='{"protocolVersion":"2024-11-05","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"marker","version":"1"}}' ;;
                *'"method":"tools/list"'*)
                  result='{"tools":[{"name":"read_marker","description":"Reads the marker.","inputSchema":{"type":"object","properties":{}}}]}' ;;
                *'"method":"tools/call"'*)
                  read_marker=true
                  result='{"content":[{"type":"text","text":"marker: '"$(cat /etc/image-marker)"'"}],"isError":false}' ;;
                *'"method":"resources/read"'*)
                  result='{"contents":[{"uri":"marker://state","mimeType":"application/json","text":"{\\"read_marker\\": '"$read_marker"'}"}]}' ;;
                *)
                  result='{}' ;;
              esac
              printf '%s\\n' '{"jsonrpc":"2.0","id":'"$id"',"result":'"$result"'}'
            done
            """;

    @TempDir
    Path temp;

    @Test
    void theEnvironmentRunsInAContainerOfItsOwnAndIsRemovedAfterTheTrial() throws Exception {
        Engine engine = TestEngine.require();
        Path cases = Files.createDirectories(temp.resolve("cases"));
        Files.writeString(cases.resolve("server.sh"), SERVER);
        Path suite = cases.resolve("environment.json");
        Files.writeString(suite, """
                [{"id": "marker", "dimension": "agent", "prompt": "Read the marker.",
                  "sandbox": {"image": "%s"},
                  "environment": {"mcp": {"command": ["sh", "server.sh"]}, "state": "marker://state"},
                  "checks": [{"checker": "state_matches", "actions": [{"name": "read_marker", "arguments": {}}]}]}]
                """.formatted(TestEngine.IMAGE));
        var script = ScriptedOpenAiServer.byPrompt(
                Map.of(
                        "Read the marker.",
                        List.of(
                                calls(Call.of("read_marker", "{}")),
                                calls(Call.of(
                                        "execute_command",
                                        "{\"command\": \"cat " + suite + " || echo no case files here\"}")),
                                text("done"))),
                request -> text("nothing"));
        try (var server = ScriptedOpenAiServer.start(script)) {
            var ran = TestEngine.run(engine, suite, server, 1, temp);

            Item item = ran.items().getFirst();
            assertThat(item.status()).as(item.error() + " " + item.transcript()).isEqualTo(ItemStatus.PASSED);
            // The tool's result came from the image, through the server's container.
            assertThat(item.transcript().toString()).contains("marker: " + TestEngine.MARKER);
            // The agent's container does not see the case file.
            assertThat(item.transcript().toString())
                    .contains("no case files here")
                    .doesNotContain("\"checker\": \"state_matches\"");
            assertThat(TestEngine.containersLabelled(
                            engine, Engine.RUN_LABEL, ran.run().runId()))
                    .isZero();
        }
    }
}
