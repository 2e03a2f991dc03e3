package dev.assay.dialog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.dialog.internal.PythonJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Reads and writes {@code dialog_trace.jsonl}. Reading de-duplicates by {@code dialog_id} (the last line wins, as when
 * the reference resumes) and sorts by {@code dataset_index}, the order the metrics must sum in (docs/dialog-metrics.md
 * §3, item 6). Thread-safe (stateless).
 */
public final class TraceFile {
    private TraceFile() {}

    /**
     * The traces read from a file, and the lines that could not be read.
     *
     * @param traces one per dialog id, sorted by dataset index
     * @param problems {@code dialog.trace_invalid_line} per unreadable line, with its line number
     */
    public record Contents(List<DialogTrace> traces, List<Problem> problems) {
        public Contents {
            traces = List.copyOf(traces);
            problems = List.copyOf(problems);
        }
    }

    /**
     * Reads a trace file.
     *
     * @throws AssayException {@code dialog.trace_unreadable} when the file cannot be read
     */
    public static Contents read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssayException(
                    Problem.of("dialog.trace_unreadable", "cannot read " + file + ": " + e)
                            .withDetail("path", file.toString()),
                    e);
        }
        var byId = new LinkedHashMap<String, DialogTrace>();
        var problems = new ArrayList<Problem>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            try {
                JsonNode node = Json.MAPPER.readTree(line);
                if (!node.isObject() || !node.hasNonNull("dialog_id")) {
                    problems.add(Problem.of("dialog.trace_invalid_line", "not a dialog trace object")
                            .withDetail("line", i + 1));
                    continue;
                }
                DialogTrace trace = DialogTrace.fromJson(node);
                byId.remove(trace.dialogId());
                byId.put(trace.dialogId(), trace);
            } catch (JsonProcessingException e) {
                problems.add(Problem.of("dialog.trace_invalid_line", e.getOriginalMessage())
                        .withDetail("line", i + 1));
            }
        }
        return new Contents(sorted(byId.values()), problems);
    }

    /** {@return the traces sorted by dataset index (stable: equal indexes keep their order)} */
    public static List<DialogTrace> sorted(Collection<DialogTrace> traces) {
        return traces.stream()
                .sorted(Comparator.comparingInt(DialogTrace::datasetIndex))
                .toList();
    }

    /** {@return one trace as a file line (without the newline)} */
    public static String line(DialogTrace trace) {
        return PythonJson.line(trace.toJson());
    }

    /** Writes the traces, one per line, each followed by a newline. */
    public static void write(Path file, List<DialogTrace> traces) throws IOException {
        var text = new StringBuilder();
        traces.forEach(trace -> text.append(line(trace)).append('\n'));
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
