package dev.assay.cases.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.SourceRef;
import dev.assay.cases.SuiteLoad;
import dev.assay.cases.SuiteLoader;
import dev.assay.cases.SuiteSnapshots;
import dev.assay.cases.TestCheckers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteVersionTest {
    @TempDir
    Path dir;

    /** The canonical form as it was first computed: the case's snapshot document converted by Jackson, less source. */
    private static ObjectNode converted(Case evalCase) {
        ObjectNode node = Json.MAPPER.valueToTree(SuiteSnapshots.CaseDoc.of(evalCase));
        node.remove("source");
        return node;
    }

    @Test
    void a_case_built_field_by_field_is_the_node_jackson_converts_it_to() throws IOException {
        // Every field set, numbers of each kind, nulls and text that needs escaping: node equality compares types
        // too, so a DoubleNode where a DecimalNode was, or a field missing or added, fails here.
        var files = new LinkedHashMap<String, String>();
        files.put("z.txt", "last\n");
        files.put("a.txt", "é \"quoted\" \u0001");
        var everything = new Case(
                "c-1",
                "tool",
                "fr-FR",
                "Écris \"out.json\"\n",
                2.5,
                Duration.ofMillis(1500),
                List.of(
                        Check.of("contains", Json.parse("\"x\"")),
                        new Check(
                                "tool_args",
                                Json.parse("{\"b\":1.50,\"a\":[1,2.0,12345678901234567890,null,true],\"c\":{}}"),
                                0.25)),
                List.of("write_file"),
                List.of("file", "slow"),
                files,
                (ObjectNode) Json.parse("{\"entry_point\":\"main\",\"n\":3}"),
                new SourceRef("cases.jsonl", 7));
        var bare = new Case("c-2", null, null, null, 0, null, List.of(), List.of(), List.of(), Map.of(), null, null);

        for (Case evalCase : List.of(everything, bare)) {
            assertThat(SuiteVersion.canonical(evalCase)).isEqualTo(converted(evalCase));
        }
    }

    @Test
    void the_cases_of_a_loaded_suite_are_the_nodes_jackson_converts_them_to() throws IOException {
        Files.writeString(dir.resolve("cases.jsonl"), """
                {"id":"a","dimension":"logic","prompt":"6 x 7?","timeout_s":2.50,"checks":[{"checker":"regex","expected":"^42$"}]}
                {"id":"b","dimension":"tool","prompt":"p","weight":3,"tags":["t"],"files":{"in.txt":"x"},"checks":[{"checker":"tool_args","expected":{"tool":"read_file","args":{"path":["in.txt"]}}}]}
                """);
        SuiteLoad load = new SuiteLoader(TestCheckers.registry()).load(dir.resolve("cases.jsonl"));
        assertThat(load.problems()).isEmpty();

        assertThat(load.suite().cases())
                .hasSize(2)
                .allSatisfy(
                        evalCase -> assertThat(SuiteVersion.canonical(evalCase)).isEqualTo(converted(evalCase)));
    }

    @Test
    void a_suite_hashed_after_a_file_was_taken_back_has_the_version_of_the_cases_kept() {
        Case first = Case.of("a", "logic", "p", Check.of("contains", Json.parse("\"x\"")));
        Case second = Case.of("b", "logic", "q", Check.of("contains", Json.parse("\"y\"")));
        var straight = new SuiteVersion();
        straight.add(first);
        var takenBack = new SuiteVersion();
        takenBack.add(first);
        SuiteVersion.Mark mark = takenBack.mark();
        takenBack.add(second);
        takenBack.reset(mark);

        assertThat(takenBack.finish(Map.of())).isEqualTo(straight.finish(Map.of()));
    }
}
