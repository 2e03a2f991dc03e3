package dev.assay.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteSnapshots;
import dev.assay.result.Counts;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.store.CaseSetSnapshot;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's stored case set, whether its cases are inside the snapshot (stored before rows) or a row each. */
class StoredCaseSetTest {
    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

    private static final Suite SUITE = new Suite(
            "tagged",
            "",
            List.of(evalCase("a", "en-US", "file", "mcq"), evalCase("b", "", "mcq"), evalCase("c", "zh-CN")),
            Map.of(),
            List.of("cases.yaml"));

    @TempDir
    Path temp;

    private Store store;

    private static Case evalCase(String id, String language, String... tags) {
        return new Case(
                id,
                "logic",
                language,
                "p",
                1,
                null,
                List.of(Check.of("exact", TextNode.valueOf("x"))),
                List.of(),
                List.of(tags),
                Map.of(),
                null,
                null);
    }

    @BeforeEach
    void open() {
        store = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void runOn(String runId, String caseSetVersion) {
        store.createRun(new Run(
                runId,
                RunKind.CAPABILITY,
                "",
                "openai:bench",
                "",
                RunStatus.FINISHED,
                "tagged",
                caseSetVersion,
                null,
                List.of(),
                Map.of(),
                null,
                new Counts(0, 0, 0, 0, 0, 0, 0),
                T0,
                T0,
                0,
                null));
    }

    @Test
    void cases_stored_a_row_each_read_back_as_those_stored_inside_the_snapshot() {
        store.saveCaseSet(new CaseSetSnapshot("v-whole", "tagged", 3, SuiteSnapshots.toJson(SUITE), T0));
        store.saveCaseSet(
                new CaseSetSnapshot("v-rows", "tagged", 3, SuiteSnapshots.withoutCases(SUITE), T0),
                SuiteSnapshots.caseDocuments(SUITE));
        runOn("whole", "v-whole");
        runOn("rows", "v-rows");

        for (String runId : List.of("whole", "rows")) {
            RunReport report = RunReport.load(store, runId);
            assertThat(report.caseTags())
                    .as(runId)
                    .containsExactly(Map.entry("a", List.of("file", "mcq")), Map.entry("b", List.of("mcq")));
            assertThat(RunReport.storedCases(store, report.run()))
                    .as(runId)
                    .containsExactly(
                            Map.entry("a", SUITE.cases().get(0)),
                            Map.entry("b", SUITE.cases().get(1)),
                            Map.entry("c", SUITE.cases().get(2)));
        }
    }

    @Test
    void a_case_row_that_does_not_read_leaves_the_report_without_cases_rather_than_failing_it() {
        store.saveCaseSet(
                new CaseSetSnapshot("v-bad", "tagged", 2, SuiteSnapshots.withoutCases(SUITE), T0),
                List.of("{\"id\":\"a\"}", "{\"weight\": \"heavy\"}").iterator());
        runOn("bad", "v-bad");

        RunReport report = RunReport.load(store, "bad");

        assertThat(report.caseTags()).isEmpty();
        assertThat(RunReport.storedCases(store, report.run())).isEmpty();
    }
}
