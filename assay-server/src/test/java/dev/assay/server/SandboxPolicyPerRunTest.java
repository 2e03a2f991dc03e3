package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ModelOptions;
import dev.assay.result.Run;
import dev.assay.run.Engine;
import dev.assay.run.EvalSpec;
import dev.assay.run.Prepared;
import dev.assay.run.RunListener;
import dev.assay.run.RunSettings;
import dev.assay.sandbox.Sandboxes;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's sandbox policy is its own: a server on a host without a confining sandbox that resumes a run stored with
 * {@code allow_unsandboxed_code} still refuses to run model-written code unconfined for the runs it starts afterwards.
 */
class SandboxPolicyPerRunTest {
    /** This host, as far as the server can tell, has no bubblewrap nor any other confining sandbox. */
    private static final Sandboxes.Finder NONE = Optional::empty;

    @TempDir
    Path home;

    @Test
    void resuming_a_run_that_allowed_unconfined_code_leaves_code_confined_for_the_next_run() throws Exception {
        try (var server = new ServerFixture(home, NONE)) {
            String resumable = storedInterruptedRunAllowingUnconfinedCode(server);

            var resumed = server.post("/api/runs/" + resumable + "/resume", null);
            assertThat(resumed.status()).as(resumed.text()).isEqualTo(202);
            assertThat(server.awaitEnd(resumable).path("status").asText()).isEqualTo("finished");

            String later = server.start("code.jsonl", "");
            // Its one item is an error, so the run fails as a run of nothing but errors does.
            JsonNode ended = server.awaitEnd(later);
            assertThat(ended.path("status").asText()).as(ended.toString()).isEqualTo("failed");
            assertThat(ended.at("/error/type").asText()).isEqualTo("run.all_items_errored");
            JsonNode item = server.get("/api/runs/" + later + "/items?limit=10")
                    .json()
                    .path("items")
                    .get(0);
            assertThat(item.path("case_id").asText()).isEqualTo("code_add");
            assertThat(item.path("status").asText()).as(item.toString()).isEqualTo("error");
            assertThat(item.at("/checker_detail/checks/0/error_type").asText()).isEqualTo("sandbox.unavailable");
        }
    }

    /**
     * {@return the id of a run of the suites directory's {@code basic.jsonl} that allowed unconfined code, written by
     * another process on the same database and left {@code interrupted} (as when that process died)}
     */
    private String storedInterruptedRunAllowingUnconfinedCode(ServerFixture server) throws Exception {
        EvalSpec request = new RunSettings()
                .suites(List.of(server.home.resolve("suites").resolve("basic.jsonl")))
                .model(new ModelOptions(
                        "openai:scripted", server.model.baseUrl(), ServerFixture.KEY_VARIABLE, false, null, null))
                .allowUnsandboxedCode(true)
                .resolve();
        try (Store other = Stores.open("jdbc:sqlite:" + server.home.resolve("assay.db"));
                Prepared prepared = request.prepare(
                        null,
                        server.home.resolve("other-work"),
                        CheckerRegistry.builtins(),
                        Map.of(ServerFixture.KEY_VARIABLE, "sk-scripted")::get,
                        line -> {},
                        NONE)) {
            Run ended = new Engine(other).run(prepared.plan(), RunListener.NONE);
            ServerFixture.leaveInterrupted(other, ended);
            return ended.runId();
        }
    }
}
