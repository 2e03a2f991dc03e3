package dev.assay.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.DatasetMapping;
import dev.assay.model.ModelOptions;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON a run stores, pinned key for key: stored specs and transcripts outlive the code that wrote them, so renaming
 * a Java identifier must leave these files as they are.
 */
class StoredShapeTest {
    private static JsonNode golden(String name) throws IOException {
        try (InputStream in = StoredShapeTest.class.getResourceAsStream(name)) {
            return Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** Every key path in document order, so a renamed or reordered key fails as well as a changed value. */
    private static List<String> keyPaths(JsonNode node, String at) {
        var paths = new ArrayList<String>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String path = at + "/" + field.getKey();
            paths.add(path);
            paths.addAll(keyPaths(field.getValue(), path));
        }
        for (int i = 0; node.isArray() && i < node.size(); i++) {
            paths.addAll(keyPaths(node.get(i), at + "/" + i));
        }
        return paths;
    }

    @Test
    void a_model_runs_stored_spec_keeps_its_keys() throws IOException {
        EvalSpec spec = new RunSettings()
                .suites(List.of(Path.of("suite.jsonl")))
                .userId("ann")
                .model(ModelOptions.of("openai:gpt-test"))
                .dataset(DatasetMapping.of("question", "answer").withChoices(List.of("a", "b")))
                .resolve()
                .withObserved(new EvalSpec.Observed(
                        Json.parse("{\"type\": \"agent\", \"model\": \"openai:gpt-test\", \"tools\": []}"),
                        "bubblewrap",
                        null,
                        Map.of()));
        JsonNode written = Json.parse(Json.write(spec));
        JsonNode expected = golden("stored-spec-model.json");

        // The price table is data that changes with prices, not shape.
        assertThat(keyPaths(written, "").stream().filter(path -> !path.startsWith("/prices/")))
                .containsExactlyElementsOf(keyPaths(expected, "").stream()
                        .filter(path -> !path.startsWith("/prices/"))
                        .toList());
        assertThat(written.path("target")).isEqualTo(expected.path("target"));
        assertThat(written.path("dataset")).isEqualTo(expected.path("dataset"));
        assertThat(Json.read(Json.write(spec), EvalSpec.class)).isEqualTo(spec);
    }

    @Test
    void a_stored_spec_reads_and_writes_back_unchanged() throws IOException {
        JsonNode stored = golden("stored-spec-model.json");

        JsonNode written = Json.parse(Json.write(Json.read(stored.toString(), EvalSpec.class)));

        assertThat(keyPaths(written, "")).isEqualTo(keyPaths(stored, ""));
        assertThat(written).isEqualTo(stored);
    }

    @Test
    void a_transcripts_error_event_keeps_its_type_name() throws IOException {
        var transcript = new Transcript(List.of(
                new TranscriptEvent.FinalAnswer(Instant.EPOCH, "42"),
                new TranscriptEvent.SubjectError(Instant.EPOCH, Problem.of("target.connection", "refused"))));
        JsonNode written = transcript.toJson();
        JsonNode expected = golden("stored-transcript.json");

        assertThat(keyPaths(written, "")).isEqualTo(keyPaths(expected, ""));
        assertThat(written).isEqualTo(expected);
        assertThat(Transcript.fromJson(expected)).isEqualTo(transcript);
    }
}
