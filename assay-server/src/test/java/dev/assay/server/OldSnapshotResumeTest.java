package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ModelOptions;
import dev.assay.result.Run;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.Prepared;
import dev.assay.run.RunListener;
import dev.assay.run.RunSettings;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run stored by an Assay that wrote version 1 of the spec is upgraded when it is read, and resumed as any run is: its
 * system under test, limits and scoring come back from the old layout without the user repeating a flag.
 */
class OldSnapshotResumeTest {
    @TempDir
    Path home;

    @Test
    void a_run_stored_with_a_version_1_snapshot_is_upgraded_and_resumed() throws Exception {
        try (var server = new ServerFixture(home)) {
            String runId = storedInterruptedRunOfVersion1(server);

            var resumed = server.post("/api/runs/" + runId + "/resume", null);
            assertThat(resumed.status()).as(resumed.text()).isEqualTo(202);
            JsonNode ended = server.awaitEnd(runId);
            assertThat(ended.path("status").asText()).as(ended.toString()).isEqualTo("finished");
            assertThat(ended.at("/config/spec_version").asInt()).isEqualTo(1);
            assertThat(ended.at("/config/concurrency").asInt()).isEqualTo(2);
        }
    }

    /**
     * {@return the id of a run of {@code basic.jsonl} left {@code interrupted}, its snapshot rewritten as version 1
     * wrote it: the agent loop's settings only inside {@code target}, no {@code agent}, {@code mcp_servers}}
     */
    private String storedInterruptedRunOfVersion1(ServerFixture server) throws Exception {
        EvalSpec spec = new RunSettings()
                .suites(List.of(server.home.resolve("suites").resolve("basic.jsonl")))
                .model(new ModelOptions(
                        "openai:scripted", server.model.baseUrl(), ServerFixture.KEY_VARIABLE, false, null, null))
                .concurrency(2)
                .resolve();
        try (Store other = Stores.open("jdbc:sqlite:" + server.home.resolve("assay.db"));
                Prepared prepared = spec.prepare(
                        null,
                        server.home.resolve("other-work"),
                        CheckerRegistry.builtins(),
                        Map.of(ServerFixture.KEY_VARIABLE, "sk-scripted")::get,
                        line -> {})) {
            Run ended = new Engine(other).run(prepared.plan(), RunListener.NONE);
            ObjectNode version1 = ((ObjectNode) ended.config()).deepCopy();
            version1.remove(List.of("agent", "agent_service", "replay", "subject", "mcp_servers"));
            version1.put("spec_version", 1);
            Run old = new Run(
                    ended.runId(),
                    ended.kind(),
                    ended.userId(),
                    ended.modelName(),
                    ended.language(),
                    ended.status(),
                    ended.caseSet(),
                    ended.caseSetVersion(),
                    version1,
                    ended.toolSnapshot(),
                    ended.dimensionScores(),
                    ended.totalScore(),
                    ended.counts(),
                    ended.startedAt(),
                    ended.finishedAt(),
                    ended.elapsedS(),
                    ended.error());
            ServerFixture.leaveInterrupted(other, old);
            return ended.runId();
        }
    }
}
