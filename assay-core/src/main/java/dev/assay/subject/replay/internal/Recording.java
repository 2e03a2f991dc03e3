package dev.assay.subject.replay.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.transcript.Transcript;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Recorded transcripts by case id, read from a replay file: JSONL with one {@link Recorded} per line (and optionally a
 * header line {@code {"tool_names": [...]}}), or a {@code report.json} written by Assay, whose items carry their
 * transcripts.
 *
 * @param source the file it was read from
 * @param cases the recordings by case id, in file order
 * @param toolNames the tools the recorded target offered (the header line, or the report's {@code tool_snapshot});
 *     empty when the file does not say
 */
public record Recording(Path source, Map<String, Recorded> cases, Set<String> toolNames) {
    public Recording {
        Objects.requireNonNull(source, "source");
        cases = Collections.unmodifiableMap(new LinkedHashMap<>(cases));
        toolNames = Set.copyOf(toolNames);
    }

    /**
     * One case as it was recorded.
     *
     * @param caseId the case id
     * @param runId the run it was recorded in; empty when unknown. Replay replaces it by the new run's id in the
     *     transcript and the files, so that {@code {run_id}} placeholders judge alike
     * @param transcript what the target did
     * @param workspaceFiles files to put into the case workspace before judging (relative path to text); may be empty
     */
    public record Recorded(String caseId, String runId, Transcript transcript, Map<String, String> workspaceFiles) {
        public Recorded {
            Objects.requireNonNull(caseId, "caseId");
            runId = runId == null ? "" : runId;
            Objects.requireNonNull(transcript, "transcript");
            workspaceFiles = workspaceFiles == null ? Map.of() : Map.copyOf(workspaceFiles);
        }

        /** {@return the line that {@link #read} reads back} */
        public JsonNode toJson() {
            var node = Json.object();
            node.put("case_id", caseId);
            node.put("run_id", runId);
            node.set("transcript", transcript.toJson());
            if (!workspaceFiles.isEmpty()) {
                node.set("workspace_files", Json.tree(new TreeMap<>(workspaceFiles)));
            }
            return node;
        }
    }

    /**
     * @throws AssayException {@code replay.unreadable} when the file cannot be read, {@code replay.invalid} (with the
     *     line) when a line is not a recording, {@code replay.duplicate_case} when a case id repeats
     */
    public static Recording read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssayException(
                    Problem.of("replay.unreadable", "cannot read " + file + ": " + e.getMessage())
                            .withDetail("file", file.toString()),
                    e);
        }
        JsonNode first = firstValue(text);
        if (first != null && first.isObject() && first.path("items").isArray()) {
            return fromReport(file, first);
        }
        var cases = new LinkedHashMap<String, Recorded>();
        var tools = new LinkedHashSet<String>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            JsonNode node;
            try {
                node = Json.MAPPER.readTree(line);
            } catch (IOException e) {
                throw invalid(file, i + 1, "not JSON");
            }
            if (node.isObject()
                    && !node.has("case_id")
                    && node.path("tool_names").isArray()) {
                node.path("tool_names").forEach(name -> tools.add(name.asText()));
                continue;
            }
            add(cases, file, i + 1, node, "");
        }
        return new Recording(file, cases, tools);
    }

    private static Recording fromReport(Path file, JsonNode report) {
        var cases = new LinkedHashMap<String, Recorded>();
        String runId = report.path("run_id").asText("");
        int index = 0;
        for (JsonNode item : report.path("items")) {
            index++;
            String status = item.path("status").asText();
            // Skipped and cancelled items recorded nothing to judge; replay leaves them skipped as missing.
            if (status.equals("skipped") || status.equals("cancelled")) {
                continue;
            }
            add(cases, file, index, item, runId);
        }
        var tools = new LinkedHashSet<String>();
        report.path("tool_snapshot").forEach(name -> tools.add(name.asText()));
        return new Recording(file, cases, tools);
    }

    private static void add(Map<String, Recorded> cases, Path file, int line, JsonNode node, String defaultRunId) {
        String caseId = node.path("case_id").asText("");
        if (caseId.isBlank() || !node.path("transcript").isArray()) {
            throw invalid(file, line, "expected {\"case_id\": ..., \"transcript\": [...]}");
        }
        Transcript transcript;
        try {
            transcript = Transcript.fromJson(node.path("transcript"));
        } catch (AssayException e) {
            throw invalid(file, line, e.problem().message());
        }
        var files = new LinkedHashMap<String, String>();
        node.path("workspace_files")
                .properties()
                .forEach(field -> files.put(
                        field.getKey(),
                        field.getValue().isTextual() ? field.getValue().asText() : Json.write(field.getValue())));
        String runId = node.path("run_id").asText(defaultRunId);
        if (cases.put(caseId, new Recorded(caseId, runId, transcript, files)) != null) {
            throw new AssayException(Problem.of("replay.duplicate_case", "case " + caseId + " is recorded twice")
                    .withDetail("file", file.toString())
                    .withDetail("line", line)
                    .withDetail("case_id", caseId));
        }
    }

    private static JsonNode firstValue(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }

    private static AssayException invalid(Path file, int line, String why) {
        return new AssayException(Problem.of("replay.invalid", file + ":" + line + ": " + why)
                .withDetail("file", file.toString())
                .withDetail("line", line));
    }
}
