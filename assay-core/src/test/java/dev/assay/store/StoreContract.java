package dev.assay.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.result.ToolCallView;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every behaviour a {@link Store} promises, run against each supported database by a subclass that supplies a fresh,
 * empty database URL per test.
 */
abstract class StoreContract {
    private static final Instant T0 = Instant.parse("2026-11-20T10:15:30.123Z");

    private String url;
    private Store store;

    /** {@return the JDBC URL of a fresh, empty database for one test} */
    protected abstract String freshUrl() throws Exception;

    /** {@return the URL of this test's database} */
    protected String url() {
        return url;
    }

    @BeforeEach
    void openStore() throws Exception {
        url = freshUrl();
        store = Stores.open(url);
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void a_running_run_that_stopped_beating_is_silent_and_a_beating_or_finished_one_is_not() throws Exception {
        store.createRun(runningRun("quiet", T0, "u", "m"));
        store.createRun(runningRun("beating", T0, "u", "m"));
        store.createRun(finishedRun("done", T0));
        Thread.sleep(30);
        Instant between = Instant.now();
        Thread.sleep(30);

        store.heartbeat("beating");
        store.heartbeat("done");

        Map<String, Instant> lastSigns =
                store.runningRuns().stream().collect(Collectors.toMap(RunLife::runId, RunLife::lastSign));
        assertThat(lastSigns).containsOnlyKeys("quiet", "beating");
        assertThat(lastSigns.get("quiet")).isBefore(between);
        assertThat(lastSigns.get("beating")).isAfter(between);
    }

    @Test
    void a_running_run_is_stored_with_this_process_as_its_owner() {
        store.createRun(runningRun("owned", T0, "u", "m"));

        assertThat(store.runningRuns())
                .singleElement()
                .satisfies(life -> assertThat(life.owner()).isEqualTo(RunOwner.current()));
    }

    @Test
    void created_run_is_found_with_every_field() {
        Run run = finishedRun("r1", T0);

        store.createRun(run);

        assertThat(store.findRun("r1")).contains(run);
    }

    @Test
    void a_runs_extra_metrics_are_stored_and_read_back() {
        store.createRun(runningRun("r1", T0, "alice", "gpt-4o"));
        var metrics = new LinkedHashMap<String, Double>();
        metrics.put("zeta", 1.0);
        metrics.put("alpha", 0.25);

        store.updateRun(finishedRun("r1", T0).withMetrics(metrics));

        assertThat(store.findRun("r1").orElseThrow().metrics()).containsExactlyEntriesOf(metrics);
    }

    @Test
    void running_run_with_no_score_and_no_end_round_trips() {
        Run run = runningRun("r1", T0, "alice", "gpt-4o");

        store.createRun(run);

        assertThat(store.findRun("r1")).contains(run);
    }

    @Test
    void unknown_run_is_not_found() {
        assertThat(store.findRun("missing")).isEmpty();
    }

    @Test
    void creating_a_run_twice_is_rejected() {
        store.createRun(runningRun("r1", T0, "alice", "m"));

        assertThatThrownBy(() -> store.createRun(runningRun("r1", T0, "bob", "m")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("store.run_exists"));
        assertThat(store.findRun("r1")).get().extracting(Run::userId).isEqualTo("alice");
    }

    @Test
    void updated_run_replaces_status_scores_counts_and_times() {
        Run running = runningRun("r1", T0, "alice", "gpt-4o");
        store.createRun(running);
        Run finished = running.withProgress(
                RunStatus.FAILED,
                Map.of("logic", 0.5),
                0.5,
                new Counts(4, 1, 1, 0, 1, 1, 0),
                T0.plusSeconds(90),
                90.25,
                Problem.of("target.unreachable", "connection refused").withDetail("attempts", 3));

        store.updateRun(finished);

        assertThat(store.findRun("r1")).contains(finished);
    }

    @Test
    void a_conditional_update_replaces_a_run_only_in_the_status_expected() {
        Run running = runningRun("r1", T0, "", "m");
        store.createRun(running);
        Run cancelled =
                running.withProgress(RunStatus.CANCELLED, Map.of(), null, running.counts(), T0.plusSeconds(5), 5, null);

        assertThat(store.updateRunIf(cancelled, RunStatus.INTERRUPTED)).isFalse();
        assertThat(store.findRun("r1")).contains(running);
        assertThat(store.updateRunIf(cancelled, RunStatus.RUNNING)).isTrue();
        assertThat(store.findRun("r1")).contains(cancelled);
    }

    @Test
    void updating_an_unknown_run_is_rejected() {
        assertThatThrownBy(() -> store.updateRun(runningRun("missing", T0, "", "m")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("store.unknown_run"));
    }

    @Test
    void instants_are_kept_to_the_millisecond() {
        Instant precise = Instant.parse("2026-11-20T10:15:30.123456789Z");
        store.createRun(runningRun("r1", precise, "", "m"));

        assertThat(store.findRun("r1"))
                .get()
                .extracting(Run::startedAt)
                .isEqualTo(Instant.parse("2026-11-20T10:15:30.123Z"));
    }

    @Test
    void item_round_trips_every_field() {
        store.createRun(runningRun("r1", T0, "", "m"));
        Item item = fullItem("r1", "case-1", 0);

        store.upsertItem(item);

        assertThat(store.listItems("r1", 0, 10)).containsExactly(item);
    }

    @Test
    void items_read_with_some_of_their_fields_leave_the_others_empty() {
        store.createRun(runningRun("r1", T0, "", "m"));
        Item item = fullItem("r1", "case-1", 0);
        store.upsertItem(item);
        Item brief = item.withTranscript(null);
        Item figures = new Item(
                item.runId(),
                item.caseId(),
                item.seq(),
                item.dimension(),
                item.status(),
                item.score(),
                item.maxScore(),
                item.weight(),
                null,
                null,
                item.toolCalls(),
                null,
                item.error(),
                null,
                null,
                null,
                0,
                false);

        assertThat(store.listItems("r1", 0, 10, ItemFields.WHOLE)).containsExactly(item);
        assertThat(store.listItems("r1", 0, 10, ItemFields.BRIEF)).containsExactly(brief);
        assertThat(store.listItems("r1", 0, 10, ItemFields.FIGURES)).containsExactly(figures);
        assertThat(store.listItemsAfter("r1", null, 10, ItemFields.FIGURES)).containsExactly(figures);
    }

    @Test
    void upserting_an_item_twice_keeps_one_row_with_the_latest_values() {
        store.createRun(runningRun("r1", T0, "", "m"));
        store.upsertItem(simpleItem("r1", "case-1", 0, ItemStatus.CANCELLED));
        Item latest = fullItem("r1", "case-1", 0);

        store.upsertItem(latest);

        assertThat(store.countItems("r1")).isEqualTo(1);
        assertThat(store.listItems("r1", 0, 10)).containsExactly(latest);
    }

    @Test
    void item_for_an_unknown_run_is_rejected() {
        assertThatThrownBy(() -> store.upsertItem(simpleItem("missing", "case-1", 0, ItemStatus.PASSED)))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("store.unknown_run"));
    }

    @Test
    void runs_are_listed_newest_first() {
        store.createRun(runningRun("old", T0, "", "m"));
        store.createRun(runningRun("new", T0.plusSeconds(60), "", "m"));
        store.createRun(runningRun("mid", T0.plusMillis(1), "", "m"));

        assertThat(store.listRuns(RunQuery.all())).extracting(Run::runId).containsExactly("new", "mid", "old");
    }

    @Test
    void listing_filters_by_user() {
        store.createRun(runningRun("a", T0, "alice", "m"));
        store.createRun(runningRun("b", T0, "bob", "m"));

        assertThat(store.listRuns(query("alice", null, null, null, null, null)))
                .extracting(Run::runId)
                .containsExactly("a");
    }

    @Test
    void model_name_filter_is_a_case_insensitive_substring() {
        store.createRun(runningRun("a", T0, "", "OpenAI/GPT-4o-mini"));
        store.createRun(runningRun("b", T0.plusSeconds(1), "", "qwen3-gpt-4o"));
        store.createRun(runningRun("c", T0.plusSeconds(2), "", "claude"));

        assertThat(store.listRuns(query(null, "gPt-4O", null, null, null, null)))
                .extracting(Run::runId)
                .containsExactly("b", "a");
    }

    @Test
    void model_name_filter_treats_like_wildcards_literally() {
        store.createRun(runningRun("a", T0, "", "gpt_4"));
        store.createRun(runningRun("b", T0, "", "gptx4"));
        store.createRun(runningRun("c", T0, "", "gpt-100%"));

        assertThat(store.listRuns(query(null, "t_4", null, null, null, null)))
                .extracting(Run::runId)
                .containsExactly("a");
        assertThat(store.listRuns(query(null, "%", null, null, null, null)))
                .extracting(Run::runId)
                .containsExactly("c");
    }

    @Test
    void listing_filters_by_status_and_kind() {
        store.createRun(runningRun("a", T0, "", "m"));
        store.createRun(finishedRun("b", T0));
        Run dialog = new Run(
                "c",
                RunKind.DIALOG,
                "",
                "m",
                "",
                RunStatus.FINISHED,
                "",
                "",
                null,
                null,
                null,
                null,
                null,
                T0,
                T0.plusSeconds(1),
                1.0,
                null);
        store.createRun(dialog);

        assertThat(store.listRuns(query(null, null, RunStatus.FINISHED, RunKind.CAPABILITY, null, null)))
                .extracting(Run::runId)
                .containsExactly("b");
    }

    @Test
    void listing_filters_by_a_half_open_time_window() {
        store.createRun(runningRun("before", T0.minusMillis(1), "", "m"));
        store.createRun(runningRun("start", T0, "", "m"));
        store.createRun(runningRun("inside", T0.plusSeconds(30), "", "m"));
        store.createRun(runningRun("end", T0.plusSeconds(60), "", "m"));

        assertThat(store.listRuns(query(null, null, null, null, T0, T0.plusSeconds(60))))
                .extracting(Run::runId)
                .containsExactly("inside", "start");
    }

    @Test
    void listing_pages_with_offset_and_limit() {
        for (int i = 0; i < 5; i++) {
            store.createRun(runningRun("r" + i, T0.plusSeconds(i), "", "m"));
        }

        assertThat(store.listRuns(RunQuery.all().page(1, 2)))
                .extracting(Run::runId)
                .containsExactly("r3", "r2");
        assertThat(store.listRuns(RunQuery.all().page(4, 2)))
                .extracting(Run::runId)
                .containsExactly("r0");
    }

    @Test
    void runs_started_at_the_same_instant_page_in_a_stable_order() {
        for (int i = 0; i < 4; i++) {
            store.createRun(runningRun("r" + i, T0, "", "m"));
        }

        assertThat(store.listRuns(RunQuery.all().page(0, 2)))
                .extracting(Run::runId)
                .containsExactly("r3", "r2");
        assertThat(store.listRuns(RunQuery.all().page(2, 2)))
                .extracting(Run::runId)
                .containsExactly("r1", "r0");
    }

    @Test
    void count_applies_the_filters_and_ignores_paging() {
        for (int i = 0; i < 5; i++) {
            store.createRun(runningRun("r" + i, T0.plusSeconds(i), i % 2 == 0 ? "alice" : "bob", "m"));
        }

        assertThat(store.countRuns(query("alice", null, null, null, null, null).page(2, 1)))
                .isEqualTo(3);
        assertThat(store.countRuns(RunQuery.all().page(4, 1))).isEqualTo(5);
    }

    @Test
    void items_are_listed_by_seq_with_offset_and_limit() {
        store.createRun(runningRun("r1", T0, "", "m"));
        for (int seq : new int[] {3, 0, 4, 1, 2}) {
            store.upsertItem(simpleItem("r1", "case-" + seq, seq, ItemStatus.PASSED));
        }

        assertThat(store.listItems("r1", 1, 3)).extracting(Item::caseId).containsExactly("case-1", "case-2", "case-3");
    }

    @Test
    void items_are_listed_page_after_page_by_the_last_item_of_the_page_before() {
        store.createRun(runningRun("r1", T0, "", "m"));
        for (int seq : new int[] {3, 0, 4, 1, 2}) {
            store.upsertItem(simpleItem("r1", "case-" + seq, seq, ItemStatus.PASSED));
        }
        // Two items with one seq (a dialog's and a sample's ids may share it) are told apart by their case id.
        store.upsertItem(simpleItem("r1", "case-2b", 2, ItemStatus.PASSED));

        List<Item> first = store.listItemsAfter("r1", null, 3);
        List<Item> second = store.listItemsAfter("r1", first.getLast(), 3);
        List<Item> rest = store.listItemsAfter("r1", second.getLast(), 3);

        assertThat(first).extracting(Item::caseId).containsExactly("case-0", "case-1", "case-2");
        assertThat(second).extracting(Item::caseId).containsExactly("case-2b", "case-3", "case-4");
        assertThat(rest).isEmpty();
    }

    @Test
    void stored_positions_and_one_item_by_position_are_read_per_run() {
        store.createRun(runningRun("r1", T0, "", "m"));
        store.createRun(runningRun("r2", T0, "", "m"));
        store.upsertItem(simpleItem("r1", "c", 2, ItemStatus.PASSED));
        store.upsertItem(simpleItem("r1", "a", 0, ItemStatus.FAILED));
        store.upsertItem(simpleItem("r2", "b", 1, ItemStatus.PASSED));

        assertThat(store.storedSeqs("r1")).containsExactly(0, 2);
        assertThat(store.findItem("r1", 2)).map(Item::caseId).contains("c");
        assertThat(store.findItem("r1", 1)).isEmpty();
    }

    @Test
    void items_are_counted_per_run() {
        store.createRun(runningRun("r1", T0, "", "m"));
        store.createRun(runningRun("r2", T0, "", "m"));
        store.upsertItem(simpleItem("r1", "a", 0, ItemStatus.PASSED));
        store.upsertItem(simpleItem("r1", "b", 1, ItemStatus.FAILED));
        store.upsertItem(simpleItem("r2", "a", 0, ItemStatus.PASSED));

        assertThat(store.countItems("r1")).isEqualTo(2);
        assertThat(store.listItems("r2", 0, 10)).extracting(Item::runId).containsExactly("r2");
    }

    @Test
    void deleting_a_run_removes_its_items_and_keeps_other_runs() {
        store.createRun(finishedRun("r1", T0));
        store.createRun(finishedRun("r2", T0));
        store.upsertItem(simpleItem("r1", "a", 0, ItemStatus.PASSED));
        store.upsertItem(simpleItem("r2", "a", 0, ItemStatus.PASSED));

        assertThat(store.deleteRun("r1")).isTrue();

        assertThat(store.findRun("r1")).isEmpty();
        assertThat(store.countItems("r1")).isZero();
        assertThat(store.countItems("r2")).isEqualTo(1);
    }

    @Test
    void a_running_run_is_not_deleted_and_keeps_its_items() {
        store.createRun(runningRun("r1", T0, "", "m"));
        store.upsertItem(simpleItem("r1", "a", 0, ItemStatus.PASSED));

        assertThatThrownBy(() -> store.deleteRun("r1"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("run.still_running"));

        assertThat(store.findRun("r1")).isPresent();
        assertThat(store.countItems("r1")).isEqualTo(1);
    }

    @Test
    void an_interrupted_run_round_trips_and_can_be_deleted() {
        Run finished = finishedRun("r1", T0);
        Run interrupted = finished.withProgress(
                RunStatus.INTERRUPTED,
                finished.dimensionScores(),
                finished.totalScore(),
                finished.counts(),
                finished.finishedAt(),
                finished.elapsedS(),
                Problem.of("store.outage", "the database was unavailable for more than 180 s"));
        store.createRun(interrupted);

        assertThat(store.findRun("r1")).contains(interrupted);
        assertThat(store.listRuns(new RunQuery(null, null, RunStatus.INTERRUPTED, null, null, null, 0, 10)))
                .extracting(Run::runId)
                .containsExactly("r1");
        assertThat(store.deleteRun("r1")).isTrue();
    }

    @Test
    void the_truncated_flag_round_trips() {
        store.createRun(runningRun("r1", T0, "", "m"));
        Item whole = simpleItem("r1", "a", 0, ItemStatus.PASSED);
        Item cut = new Item(
                "r1",
                "b",
                1,
                "logic",
                ItemStatus.PASSED,
                1,
                1,
                1,
                "p",
                "a [truncated by Assay]",
                null,
                null,
                null,
                null,
                T0,
                T0,
                0,
                true);

        store.upsertItem(whole);
        store.upsertItem(cut);

        assertThat(store.listItems("r1", 0, 10)).containsExactly(whole, cut);
    }

    @Test
    void deleting_an_unknown_run_returns_false() {
        assertThat(store.deleteRun("missing")).isFalse();
    }

    @Test
    void saving_a_case_set_twice_keeps_the_first_snapshot() {
        var first = new CaseSetSnapshot("abc123", "core", 2, "{\"cases\":[{\"id\":\"a\"},{\"id\":\"b\"}]}", T0);
        store.saveCaseSet(first);

        store.saveCaseSet(new CaseSetSnapshot("abc123", "renamed", 9, "{}", T0.plusSeconds(5)));

        assertThat(store.findCaseSet("abc123")).contains(first);
        assertThat(store.hasCaseSet("abc123")).isTrue();
    }

    @Test
    void a_case_set_stored_a_case_per_row_reads_back_in_order_across_pages() {
        var header = new CaseSetSnapshot("v-rows", "big", 1_234, "{\"cases\":[]}", T0);
        var written = java.util.stream.IntStream.range(0, 1_234)
                .mapToObj(index -> "{\"id\":\"c" + index + "\",\"prompt\":\"中文 " + index + "\"}")
                .toList();

        store.saveCaseSet(header, written.iterator());
        store.saveCaseSet(
                new CaseSetSnapshot("v-rows", "again", 1, "{}", T0),
                List.of("{\"id\":\"x\"}").iterator());

        var read = new ArrayList<String>();
        store.forEachCaseSetCase("v-rows", read::add);
        assertThat(read).isEqualTo(written);
        assertThat(store.findCaseSet("v-rows")).contains(header);
        var none = new ArrayList<String>();
        store.forEachCaseSetCase("abc-missing", none::add);
        assertThat(none).isEmpty();
    }

    @Test
    void unknown_case_set_is_not_found() {
        assertThat(store.findCaseSet("nope")).isEmpty();
        assertThat(store.hasCaseSet("nope")).isFalse();
    }

    @Test
    void unicode_and_large_text_round_trip() {
        String unicode = "中文 ✓ 🚀 \"quotes\" \\ back'slash\n\ttab é";
        String large = unicode.repeat(60_000);
        Run run = new Run(
                "r1",
                RunKind.CAPABILITY,
                "用户",
                "模型-🚀",
                "zh",
                RunStatus.RUNNING,
                "核心",
                "v",
                null,
                List.of("读取文件"),
                Map.of("逻辑", 1.0),
                null,
                null,
                T0,
                null,
                0,
                null);
        store.createRun(run);
        JsonNode transcript = Json.tree(List.of(Map.of("type", "tool_output", "output", "bin\u0000ary " + large)));
        Item item = new Item(
                "r1",
                "案例-1",
                0,
                "逻辑",
                ItemStatus.PASSED,
                1,
                1,
                1,
                large,
                unicode,
                List.of(),
                null,
                null,
                transcript,
                T0,
                T0,
                0.5);

        store.upsertItem(item);

        assertThat(store.findRun("r1")).contains(run);
        assertThat(store.listItems("r1", 0, 1)).containsExactly(item);
    }

    @Test
    void nul_characters_in_plain_text_are_stored_as_replacement_characters() {
        store.createRun(runningRun("r1", T0, "", "m"));
        Item item = new Item(
                "r1",
                "c",
                0,
                "d",
                ItemStatus.PASSED,
                1,
                1,
                1,
                "a\u0000b",
                "x\u0000",
                null,
                null,
                null,
                null,
                null,
                null,
                0);

        store.upsertItem(item);

        assertThat(store.listItems("r1", 0, 1)).singleElement().satisfies(stored -> {
            assertThat(stored.prompt()).isEqualTo("a\uFFFDb");
            assertThat(stored.finalAnswer()).isEqualTo("x\uFFFD");
        });
    }

    @Test
    void concurrent_upserts_from_8_threads_lose_nothing() throws Exception {
        store.createRun(runningRun("r1", T0, "", "m"));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            var tasks = new ArrayList<Callable<Void>>();
            for (int thread = 0; thread < 8; thread++) {
                int first = thread * 50;
                tasks.add(() -> {
                    for (int seq = first; seq < first + 50; seq++) {
                        store.upsertItem(simpleItem("r1", "case-" + seq, seq, ItemStatus.FAILED));
                        store.upsertItem(simpleItem("r1", "case-" + seq, seq, ItemStatus.PASSED));
                    }
                    return null;
                });
            }
            for (Future<Void> done : pool.invokeAll(tasks)) {
                done.get();
            }
        } finally {
            pool.shutdown();
        }

        assertThat(store.countItems("r1")).isEqualTo(400);
        assertThat(store.listItems("r1", 0, 1000))
                .extracting(Item::seq)
                .containsExactlyElementsOf(
                        java.util.stream.IntStream.range(0, 400).boxed().toList());
        assertThat(store.listItems("r1", 0, 1000)).extracting(Item::status).containsOnly(ItemStatus.PASSED);
    }

    @Test
    void a_run_with_ten_thousand_items_pages_from_the_end() {
        store.createRun(runningRun("r1", T0, "", "m"));
        for (int seq = 9_999; seq >= 0; seq--) {
            store.upsertItem(simpleItem("r1", String.format("case-%05d", seq), seq, ItemStatus.PASSED));
        }

        assertThat(store.countItems("r1")).isEqualTo(10_000);
        assertThat(store.listItems("r1", 9_998, 50)).extracting(Item::seq).containsExactly(9_998, 9_999);
    }

    @Test
    void reopening_keeps_data_and_does_not_rerun_migrations() throws SQLException {
        store.createRun(finishedRun("r1", T0));
        int migrations = appliedMigrations();
        store.close();

        store = Stores.open(url);

        assertThat(store.findRun("r1")).contains(finishedRun("r1", T0));
        assertThat(appliedMigrations()).isEqualTo(migrations).isPositive();
    }

    private int appliedMigrations() throws SQLException {
        try (var connection = DriverManager.getConnection(url);
                var statement = connection.createStatement();
                var result = statement.executeQuery("SELECT count(*) FROM " + Stores.HISTORY_TABLE)) {
            result.next();
            return result.getInt(1);
        }
    }

    private static RunQuery query(
            String userId, String modelName, RunStatus status, RunKind kind, Instant since, Instant until) {
        return new RunQuery(userId, modelName, status, kind, since, until, 0, 1000);
    }

    private static Run runningRun(String runId, Instant startedAt, String userId, String modelName) {
        return new Run(
                runId,
                RunKind.CAPABILITY,
                userId,
                modelName,
                "",
                RunStatus.RUNNING,
                "core",
                "",
                null,
                null,
                null,
                null,
                null,
                startedAt,
                null,
                0,
                null);
    }

    private static Run finishedRun(String runId, Instant startedAt) {
        var scores = new LinkedHashMap<String, Double>();
        scores.put("tool", 0.75);
        scores.put("logic", 1.0);
        return new Run(
                runId,
                RunKind.CAPABILITY,
                "alice",
                "gpt-4o",
                "en",
                RunStatus.FINISHED,
                "core",
                "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                Json.parse("{\"target\":{\"name\":\"openai\",\"temperature\":0.0},\"seed\":7}"),
                List.of("list_files", "read_file"),
                scores,
                0.8125,
                new Counts(3, 2, 1, 0, 0, 0, 0),
                startedAt,
                startedAt.plusMillis(61_250),
                61.25,
                null);
    }

    private static Item simpleItem(String runId, String caseId, int seq, ItemStatus status) {
        return new Item(
                runId,
                caseId,
                seq,
                "logic",
                status,
                status == ItemStatus.PASSED ? 1 : 0,
                1,
                1,
                "p",
                "a",
                null,
                null,
                null,
                null,
                T0,
                T0.plusMillis(5),
                0.005);
    }

    private static Item fullItem(String runId, String caseId, int seq) {
        return new Item(
                runId,
                caseId,
                seq,
                "tool",
                ItemStatus.PARTIAL,
                0.5,
                1,
                2.5,
                "List the files in /tmp",
                "a.txt and b.txt",
                List.of(
                        new ToolCallView("list_files", Json.parse("{\"path\":\".\"}"), true),
                        new ToolCallView("read_file", Json.parse("{\"path\":\"a.txt\",\"limit\":10}"), null)),
                Json.parse("{\"checks\":[{\"checker\":\"tool_called\",\"weight\":1,\"status\":\"passed\","
                        + "\"score\":1.0},{\"checker\":\"exact\",\"weight\":1,\"status\":\"failed\",\"score\":0.0}]}"),
                new Problem("check.partial", "one of two checks failed", Map.of("failed", List.of("exact"))),
                Json.parse("[{\"type\":\"final_answer\",\"text\":\"a.txt and b.txt\"}]"),
                T0,
                T0.plusMillis(1_500),
                1.5);
    }
}
