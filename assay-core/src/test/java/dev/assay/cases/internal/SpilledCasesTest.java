package dev.assay.cases.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.Check;
import dev.assay.cases.FailingHalfWay;
import dev.assay.cases.Selection;
import dev.assay.cases.SourceRef;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteLoad;
import dev.assay.cases.SuiteLoader;
import dev.assay.cases.SuiteSnapshots;
import dev.assay.cases.TestCheckers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpilledCasesTest {
    @TempDir
    Path dir;

    private static Case evalCase(int index) {
        var attributes = Json.object().put("entry_point", "f" + index).put("ratio", index / 8.0);
        return new Case(
                "c" + index,
                index % 2 == 0 ? "logic" : "tool",
                index % 3 == 0 ? "zh-CN" : "",
                "prompt " + index + " \u4f60\u597d" + "x".repeat(index % 7 * 20_000),
                1 + index % 4,
                index % 5 == 0 ? Duration.ofMillis(1250) : null,
                List.of(Check.of("exact", TextNode.valueOf("answer " + index))),
                List.of(),
                index % 2 == 0 ? List.of("even") : List.of(),
                index % 4 == 0 ? Map.of("in.txt", "seed " + index) : Map.of(),
                attributes,
                new SourceRef("cases.jsonl", index + 1));
    }

    private static List<Case> cases(int count) {
        return IntStream.range(0, count).mapToObj(SpilledCasesTest::evalCase).toList();
    }

    @Test
    void cases_past_the_limit_go_to_a_scratch_file_and_read_back_equal() {
        var builder = new SpilledCases.Builder(3);
        List<Case> written = cases(40);
        written.forEach(builder::add);

        List<Case> built = builder.build();

        assertThat(built).isInstanceOf(SpilledCases.class).hasSize(40).isEqualTo(written);
        assertThat(built.get(17)).isEqualTo(written.get(17)).isNotSameAs(built.get(17));
        assertThatThrownBy(() -> built.get(40)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void cases_up_to_the_limit_stay_in_memory() {
        var builder = new SpilledCases.Builder(3);
        cases(3).forEach(builder::add);

        assertThat(builder.build()).isNotInstanceOf(SpilledCases.class).isEqualTo(cases(3));
    }

    @Test
    void cases_taken_back_are_gone_and_later_ones_take_their_place() {
        var spilled = new SpilledCases.Builder(3);
        var held = new SpilledCases.Builder(100);
        for (var builder : List.of(spilled, held)) {
            cases(10).forEach(builder::add);
            builder.truncate(6);
            builder.add(evalCase(99));
            builder.truncate(20);
        }

        var expected = new ArrayList<>(cases(6));
        expected.add(evalCase(99));
        assertThat(spilled.build()).isInstanceOf(SpilledCases.class).isEqualTo(expected);
        assertThat(held.build()).isEqualTo(expected);
    }

    @Test
    void a_selection_of_spilled_cases_shares_the_file_in_the_order_asked() {
        var builder = new SpilledCases.Builder(2);
        cases(12).forEach(builder::add);
        var spilled = (SpilledCases) builder.build();

        assertThat(spilled.select(List.of(9, 0, 4))).containsExactly(evalCase(9), evalCase(0), evalCase(4));
    }

    @Test
    void the_tags_of_spilled_cases_are_known_without_reading_them_back() {
        var builder = new SpilledCases.Builder(2);
        cases(12).forEach(builder::add);
        builder.truncate(9);
        builder.add(evalCase(20));
        var spilled = (SpilledCases) builder.build();
        var heldAlike = new ArrayList<>(cases(9));
        heldAlike.add(evalCase(20));

        assertThat(spilled.caseTags())
                .as("the even cases, without the ones taken back")
                .containsExactly(
                        Map.entry("c0", List.of("even")),
                        Map.entry("c2", List.of("even")),
                        Map.entry("c4", List.of("even")),
                        Map.entry("c6", List.of("even")),
                        Map.entry("c8", List.of("even")),
                        Map.entry("c20", List.of("even")))
                .isEqualTo(new Suite("s", "", heldAlike, Map.of(), List.of()).caseTags());
        assertThat(new Suite("s", "", spilled, Map.of(), List.of()).caseTags()).isEqualTo(spilled.caseTags());
        assertThat(spilled.select(List.of(9, 8, 3, 0)).caseTags())
                .containsExactly(
                        Map.entry("c20", List.of("even")),
                        Map.entry("c8", List.of("even")),
                        Map.entry("c0", List.of("even")));
    }

    @Test
    void spilled_cases_are_read_from_many_threads_at_once() throws Exception {
        var builder = new SpilledCases.Builder(0);
        List<Case> written = cases(200);
        written.forEach(builder::add);
        List<Case> built = builder.build();

        try (var threads = Executors.newFixedThreadPool(8)) {
            var reads = new ArrayList<Future<Boolean>>();
            for (int thread = 0; thread < 8; thread++) {
                int offset = thread;
                reads.add(threads.submit(() -> IntStream.range(0, 200)
                        .map(index -> (index * 7 + offset) % 200)
                        .allMatch(index -> built.get(index).equals(written.get(index)))));
            }
            for (Future<Boolean> read : reads) {
                assertThat(read.get()).isTrue();
            }
        }
    }

    @Test
    void a_reader_that_is_interrupted_leaves_the_cases_readable_and_keeps_its_interrupt() {
        var builder = new SpilledCases.Builder(0);
        List<Case> written = cases(20);
        written.forEach(builder::add);
        List<Case> built = builder.build();

        Thread.currentThread().interrupt();
        Case read = built.get(3);
        boolean stillInterrupted = Thread.interrupted();

        assertThat(read).isEqualTo(written.get(3));
        assertThat(stillInterrupted).isTrue();
        assertThat(built.get(4)).isEqualTo(written.get(4));
    }

    private static String line(int index) {
        return "{\"id\": \"c%d\", \"dimension\": \"logic\", \"prompt\": \"p%d\", \"tags\": [\"t%d\"], \"checker\": \"exact\", \"expected\": \"x\"}\n"
                .formatted(index, index, index % 3);
    }

    @Test
    void a_suite_past_the_limit_loads_into_a_scratch_file_with_the_version_and_selection_of_one_held_in_memory()
            throws IOException {
        int count = SpilledCases.Builder.IN_MEMORY_CASES + 500;
        var text = new StringBuilder();
        IntStream.range(0, count).forEach(index -> text.append(line(index)));
        Files.writeString(dir.resolve("a.jsonl"), text);

        SuiteLoad load = new SuiteLoader(TestCheckers.registry()).load(dir);

        Suite suite = load.suite();
        assertThat(load.problems()).isEmpty();
        assertThat(suite.cases()).isInstanceOf(SpilledCases.class).hasSize(count);
        assertThat(suite.cases().get(count - 1).id()).isEqualTo("c" + (count - 1));
        assertThat(suite.cases().get(count - 1).source().line()).isEqualTo(count);
        Suite held = new Suite(suite.name(), "", new ArrayList<>(suite.cases()), suite.fixtures(), suite.sources());
        assertThat(suite.version()).isEqualTo(SuiteSnapshots.version(held.cases(), held.fixtures()));
        var selection = new Selection(List.of(), "", List.of("t1"), List.of(), 42L, 1_000);
        assertThat(selection.select(suite).cases())
                .isInstanceOf(SpilledCases.class)
                .isEqualTo(selection.select(held).cases());
        assertThat(SuiteSnapshots.fromJson(SuiteSnapshots.toJson(suite))).isEqualTo(suite);
    }

    @Test
    void a_file_that_fails_after_the_suite_spilled_takes_back_its_cases_and_their_hashing() throws IOException {
        int count = SpilledCases.Builder.IN_MEMORY_CASES + 10;
        var text = new StringBuilder();
        IntStream.range(0, count).forEach(index -> text.append(line(index)));
        var broken = new StringBuilder();
        IntStream.range(count, count + 300).forEach(index -> broken.append(line(index)));
        try (var suite = FailingHalfWay.write(
                dir, Map.of("a.jsonl", text.toString(), "c.jsonl", line(count + 1000)), "b.jsonl", broken.toString())) {
            SuiteLoad alone = new SuiteLoader(TestCheckers.registry())
                    .load(suite.directory().resolve("a.jsonl"));

            SuiteLoad load = new SuiteLoader(TestCheckers.registry()).load(suite.directory());

            assertThat(load.problems())
                    .extracting(CaseProblem::type, p -> p.source().file())
                    .containsExactly(tuple(
                            "suite.unreadable",
                            suite.directory().resolve("b.jsonl").toString()));
            List<Case> cases = load.suite().cases();
            assertThat(cases).hasSize(count + 1);
            assertThat(cases.get(count - 1)).isEqualTo(alone.suite().cases().get(count - 1));
            assertThat(cases.get(count).id()).isEqualTo("c" + (count + 1000));
            var expected = new ArrayList<>(alone.suite().cases());
            expected.add(cases.get(count));
            assertThat(load.suite().version()).isEqualTo(SuiteSnapshots.version(expected, Map.of()));
        }
    }
}
