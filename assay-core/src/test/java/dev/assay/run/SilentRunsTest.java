package dev.assay.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.transcript.Transcript;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run whose process died is ended as interrupted, with counts and scores recomputed from its stored items. */
class SilentRunsTest {
    @TempDir
    Path home;

    @Test
    void a_silent_run_becomes_interrupted_with_counts_equal_to_its_stored_items_and_can_be_deleted() throws Exception {
        try (Store store = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"))) {
            Instant started = Instant.now().minusSeconds(120);
            // What a killed process leaves: "running", and counters older than its last stored items.
            store.createRun(new Run(
                    "dead",
                    RunKind.CAPABILITY,
                    "",
                    "openai:m",
                    "",
                    RunStatus.RUNNING,
                    "suite",
                    "v",
                    Json.parse("{\"weights\": {\"logic\": 1.0, \"common\": 1.0}, \"scoring\": \"assay\"}"),
                    List.of(),
                    Map.of(),
                    null,
                    new Counts(4, 0, 0, 0, 0, 0, 0),
                    started,
                    null,
                    0,
                    null));
            store.upsertItem(item("a", 1, "logic", ItemStatus.PASSED, 1.0));
            store.upsertItem(item("b", 2, "common", ItemStatus.FAILED, 0.0));
            store.upsertItem(item("c", 3, "common", ItemStatus.PASSED, 1.0));
            Thread.sleep(20);

            List<Run> ended = SilentRuns.interrupt(store, Duration.ofMillis(10));

            assertThat(ended).extracting(Run::runId).containsExactly("dead");
            Run run = store.findRun("dead").orElseThrow();
            assertThat(run.status()).isEqualTo(RunStatus.INTERRUPTED);
            assertThat(run.counts()).isEqualTo(new Counts(4, 2, 1, 0, 0, 0, 0));
            assertThat(run.counts().completed()).isEqualTo(store.countItems("dead"));
            assertThat(run.dimensionScores()).containsEntry("logic", 1.0).containsEntry("common", 0.5);
            assertThat(run.error().type()).isEqualTo("run.process_died");
            assertThat(run.finishedAt()).isNotNull();
            assertThat(SilentRuns.interrupt(store, Duration.ofMillis(10))).isEmpty();
            assertThat(store.deleteRun("dead")).isTrue();
        }
    }

    @Test
    void a_run_that_beat_within_the_silence_is_left_running() throws Exception {
        try (Store store = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"))) {
            store.createRun(running("alive"));

            assertThat(SilentRuns.interrupt(store, SilentRuns.DEFAULT_SILENCE)).isEmpty();
            assertThat(store.findRun("alive").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        }
    }

    @Test
    void a_run_whose_process_on_this_host_has_ended_is_interrupted_at_once_without_waiting_for_its_silence()
            throws Exception {
        try (Store store = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"))) {
            store.createRun(running("killed"));
            Process ended = new ProcessBuilder("true").start();
            ended.waitFor();
            setOwner("killed", "owner_pid = " + ended.pid());

            List<Run> interrupted = SilentRuns.interrupt(store, SilentRuns.DEFAULT_SILENCE);

            assertThat(interrupted).extracting(Run::runId).containsExactly("killed");
            assertThat(store.findRun("killed").orElseThrow().error().type()).isEqualTo("run.process_died");
        }
    }

    @Test
    void a_run_whose_pid_now_belongs_to_a_later_process_is_interrupted_at_once() throws Exception {
        try (Store store = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"))) {
            store.createRun(running("reused"));
            // This process's PID, as if an owner that started a minute earlier had died and left it to this one.
            long earlier = ProcessHandle.current()
                    .info()
                    .startInstant()
                    .orElseThrow()
                    .minusSeconds(60)
                    .toEpochMilli();
            setOwner("reused", "owner_started_at = " + earlier);

            assertThat(SilentRuns.interrupt(store, SilentRuns.DEFAULT_SILENCE))
                    .extracting(Run::runId)
                    .containsExactly("reused");
        }
    }

    @Test
    void a_run_of_another_host_is_left_running_and_its_refusal_says_when_it_will_be_taken_for_ended() throws Exception {
        try (Store store = Stores.open("jdbc:sqlite:" + home.resolve("assay.db"))) {
            store.createRun(running("remote"));
            Process ended = new ProcessBuilder("true").start();
            ended.waitFor();
            setOwner("remote", "owner_host = 'elsewhere/boot/pid:[1]', owner_pid = " + ended.pid());

            assertThat(SilentRuns.interrupt(store, SilentRuns.DEFAULT_SILENCE)).isEmpty();
            Problem refusal =
                    SilentRuns.stillRunning(store, store.findRun("remote").orElseThrow(), SilentRuns.DEFAULT_SILENCE);

            assertThat(refusal.type()).isEqualTo("run.still_running");
            assertThat((Long) refusal.details().get("dead_in_s")).isBetween(1L, 60L);
        }
    }

    private static Run running(String runId) {
        return new Run(
                runId,
                RunKind.CAPABILITY,
                "",
                "m",
                "",
                RunStatus.RUNNING,
                "suite",
                "v",
                Json.object(),
                List.of(),
                Map.of(),
                null,
                new Counts(1, 0, 0, 0, 0, 0, 0),
                Instant.now(),
                null,
                0,
                null);
    }

    /** Rewrites the owner the store recorded (this process) as a test's other process. */
    private void setOwner(String runId, String assignments) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("assay.db"));
                Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate(
                            "UPDATE evaluation_runs SET " + assignments + " WHERE run_id = '" + runId + "'"))
                    .isEqualTo(1);
        }
    }

    private static Item item(String caseId, int seq, String dimension, ItemStatus status, double score) {
        Instant now = Instant.now();
        return new Item(
                "dead",
                caseId,
                seq,
                dimension,
                status,
                score,
                1.0,
                1.0,
                "p",
                "a",
                List.of(),
                null,
                null,
                Transcript.EMPTY.toJson(),
                now,
                now,
                0.1,
                false);
    }
}
