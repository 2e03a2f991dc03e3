package dev.assay.dialog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A dialog dataset (JSONL, one dialog per line) as loaded: every non-blank line becomes a {@link Dialog}, valid or with
 * its skip reason, so that one bad line never stops a run.
 *
 * @param path where it was read from, as given (written to the manifest and summary)
 * @param dialogs the dialogs in file order
 */
public record Dataset(String path, List<Dialog> dialogs) {
    // Python's json.loads rejects text after the value; Jackson accepts it unless told otherwise.
    private static final ObjectReader STRICT =
            Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    public Dataset {
        path = path == null ? "" : path;
        dialogs = List.copyOf(dialogs);
    }

    /**
     * Reads a dataset file.
     *
     * @throws AssayException {@code dialog.dataset_unreadable} when the file cannot be read
     */
    public static Dataset load(Path file) {
        try {
            return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssayException(
                    Problem.of("dialog.dataset_unreadable", "cannot read " + file + ": " + e)
                            .withDetail("path", file.toString()),
                    e);
        }
    }

    /**
     * Parses dataset text. Lines are split as Python's universal newlines do and stripped; blank lines are skipped but
     * counted, so {@code dataset_index} stays the physical line number.
     */
    public static Dataset parse(String path, String text) {
        var dialogs = new ArrayList<Dialog>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.isEmpty()) {
                dialogs.add(Dialog.of(i + 1, parseLine(line)));
            }
        }
        return new Dataset(path, dialogs);
    }

    private static JsonNode parseLine(String line) {
        try {
            return STRICT.readTree(line);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** {@return the valid dialogs, in file order} */
    public List<Dialog> valid() {
        return dialogs.stream().filter(Dialog::valid).toList();
    }

    /** {@return how many lines were skipped, by reason; reasons that did not occur are absent} */
    public Map<SkipReason, Integer> skipCounts() {
        var counts = new EnumMap<SkipReason, Integer>(SkipReason.class);
        for (Dialog dialog : dialogs) {
            if (!dialog.valid()) {
                counts.merge(dialog.skipReason(), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** {@return the last dialog with that id (the reference's dictionaries keep the last), if any} */
    public Optional<Dialog> find(String dialogId) {
        Dialog found = null;
        for (Dialog dialog : dialogs) {
            if (dialog.dialogId().equals(dialogId)) {
                found = dialog;
            }
        }
        return Optional.ofNullable(found);
    }
}
