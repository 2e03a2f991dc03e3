package dev.assay.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteSnapshotsTest {
    private static final String CASES = """
            - id: a
              dimension: complex
              language: en-US
              prompt: Write out.json
              weight: 2
              timeout_s: 1.25
              files: {in.txt: "seed\\n"}
              prerequisites: [write_file]
              tags: [file]
              entry_point: main
              checks:
                - {checker: file_exists, expected: out.json, weight: 1}
                - {checker: json_schema, expected: {path: out.json, schema: {type: object}}, weight: 2}
            - id: b
              dimension: tool
              prompt: Read in.txt
              checker: {type: tool_called, tool: read_file}
            """;

    private final SuiteLoader loader = new SuiteLoader(TestCheckers.registry());

    @TempDir
    Path dir;

    private Suite load(String name, String text) throws IOException {
        SuiteLoad load = loader.load(Files.writeString(dir.resolve(name), text));
        assertThat(load.problems()).isEmpty();
        return load.suite();
    }

    @Test
    void snapshot_rebuilds_the_same_suite() throws IOException {
        Suite suite = load("s.yaml", CASES);

        Suite rebuilt = SuiteSnapshots.fromJson(SuiteSnapshots.toJson(suite));

        assertThat(rebuilt).isEqualTo(suite);
    }

    @Test
    void version_is_a_sha256_hex_digest() throws IOException {
        assertThat(load("s.yaml", CASES).version()).matches("[0-9a-f]{64}");
    }

    @Test
    void version_is_stable_across_loads() throws IOException {
        assertThat(load("s.yaml", CASES).version())
                .isEqualTo(load("t.yaml", CASES).version());
    }

    @Test
    void version_ignores_layout_and_format() throws IOException {
        String json = Json.write(
                Json.parse(Json.write(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(CASES))));

        assertThat(load("s.json", json).version())
                .isEqualTo(load("s.yaml", CASES).version());
    }

    @Test
    void version_changes_when_an_expectation_changes() throws IOException {
        assertThat(load("s.yaml", CASES.replace("tool: read_file", "tool: list_files"))
                        .version())
                .isNotEqualTo(load("t.yaml", CASES).version());
    }

    @Test
    void version_changes_when_a_weight_changes() throws IOException {
        assertThat(load("s.yaml", CASES.replace("weight: 2\n", "weight: 3\n")).version())
                .isNotEqualTo(load("t.yaml", CASES).version());
    }

    @Test
    void version_is_recomputed_by_content_not_read_from_the_snapshot() throws IOException {
        Suite suite = load("s.yaml", CASES);

        assertThat(SuiteSnapshots.version(suite.cases(), suite.fixtures())).isEqualTo(suite.version());
    }

    @Test
    void the_version_of_a_suite_never_changes_across_assay_versions() throws IOException {
        // Stored runs are compared and resumed by this hash: the way it is computed may change, its value may not.
        assertThat(load("s.yaml", CASES).version())
                .isEqualTo("5880680275b911e08c567ceede0091449e4174aa2141702d7b09bc827bc95c79");
    }

    @Test
    void the_version_sorts_keys_at_every_depth_as_it_always_has() throws IOException {
        // Keys written out of order inside the seeded files and inside each check's expected value: a canonical form
        // that sorted only the case's own fields would give another hash. The value is the one Assay gave before
        // (0100057).
        String unsorted = """
                - id: z
                  dimension: tool
                  prompt: Edit both files
                  files: {z.txt: "last\\n", a.txt: "first\\n"}
                  tags: [file]
                  attributes_note: kept
                  checks:
                    - checker: tool_args
                      expected: {tool: write_file, args: {path: [z.txt, ./z.txt], content: ["last", "last\\n"]}}
                      weight: 2
                    - checker: json_schema
                      expected: {schema: {type: object, required: [b, a]}, path: z.txt}
                """;

        assertThat(load("s.yaml", unsorted).version())
                .isEqualTo("2a6a42707f72e6474a43a9b1f9da088df8b05f6203d81bfaef4319402137bb32");
    }

    @Test
    void a_snapshot_without_its_cases_says_so_in_its_format_version_and_each_case_reads_back_alone()
            throws IOException {
        Suite suite = load("s.yaml", CASES);

        String header = SuiteSnapshots.withoutCases(suite);
        var documents = new java.util.ArrayList<String>();
        SuiteSnapshots.caseDocuments(suite).forEachRemaining(documents::add);

        assertThat(Json.parse(header).path("format_version").asInt())
                .isEqualTo(SuiteSnapshots.CASES_APART_FORMAT_VERSION);
        assertThat(Json.parse(SuiteSnapshots.toJson(suite))
                        .path("format_version")
                        .asInt())
                .isEqualTo(SuiteSnapshots.FORMAT_VERSION);
        assertThat(SuiteSnapshots.fromJson(header).cases()).isEmpty();
        assertThat(documents.stream().map(SuiteSnapshots::caseFromJson).toList())
                .isEqualTo(suite.cases());
        assertThatThrownBy(
                        () -> SuiteSnapshots.fromJson(header.replace("\"format_version\":2", "\"format_version\":3")))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("snapshot.invalid"));
    }

    @Test
    void case_tags_are_read_from_a_snapshot_without_rebuilding_its_cases() throws IOException {
        Suite suite = load("s.yaml", CASES);

        assertThat(SuiteSnapshots.caseTags(SuiteSnapshots.toJson(suite)))
                .as("only the cases that have tags")
                .containsExactly(Map.entry("a", List.of("file")))
                .isEqualTo(suite.caseTags());
        assertThatThrownBy(() -> SuiteSnapshots.caseTags("[1]"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("snapshot.invalid"));
    }

    @Test
    void document_that_is_not_a_snapshot_is_refused() {
        assertThatThrownBy(() -> SuiteSnapshots.fromJson("{\"cases\": 3}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("snapshot.invalid"));
    }
}
