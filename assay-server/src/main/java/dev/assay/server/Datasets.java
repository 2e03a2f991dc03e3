package dev.assay.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.tools.Workspace;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The dialog datasets a server offers: the {@code .jsonl} files in its datasets directory (and one level of
 * subdirectories) whose first line is a dialog (an object with a {@code dialog_id}). Names are paths relative to that
 * directory; nothing outside it is read. Thread-safe (reads the directory on each call).
 */
final class Datasets {
    private final Path directory;

    Datasets(Path directory) {
        this.directory = directory.toAbsolutePath().normalize();
    }

    /** {@return one entry per dataset, sorted by name: {@code {name, lines}}} */
    ArrayNode list() {
        ArrayNode datasets = Json.MAPPER.createArrayNode();
        if (!Files.isDirectory(directory)) {
            return datasets;
        }
        try (Stream<Path> files = Files.walk(directory, 2)) {
            files.filter(Datasets::isDataset)
                    .sorted()
                    .forEach(path -> datasets.addObject()
                            .put("name", directory.relativize(path).toString().replace('\\', '/'))
                            .put("lines", lines(path)));
        } catch (IOException | java.io.UncheckedIOException e) {
            // An unreadable directory offers nothing; the start names the problem when one is asked for.
        }
        return datasets;
    }

    /**
     * {@return the dataset file a name refers to}
     *
     * @throws AssayException {@code request.invalid_field} for a name leading outside the directory,
     *     {@code dataset.not_found} for one that is not a dataset there
     */
    Path resolve(String name) {
        Path path;
        try {
            path = new Workspace(directory).resolve(name);
        } catch (AssayException escape) {
            throw ApiProblems.badField(
                    "dataset", "dataset must be a path inside the datasets directory, got '" + name + "'");
        }
        if (!isDataset(path)) {
            throw new AssayException(
                    Problem.of("dataset.not_found", "no dialog dataset '" + name + "'; see GET /api/datasets")
                            .withDetail("field", "dataset"));
        }
        return path;
    }

    /** {@return whether {@code file} is a dataset in this directory} */
    boolean contains(Path file) {
        Path path = file.toAbsolutePath().normalize();
        return path.startsWith(directory) && isDataset(path);
    }

    private static boolean isDataset(Path path) {
        if (!Files.isRegularFile(path) || !path.getFileName().toString().endsWith(".jsonl")) {
            return false;
        }
        return firstLine(path)
                .map(line -> {
                    try {
                        JsonNode node = Json.parse(line);
                        return node.isObject() && node.has("dialog_id");
                    } catch (RuntimeException notJson) {
                        return false;
                    }
                })
                .orElse(false);
    }

    private static Optional<String> firstLine(Path path) {
        try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank()) {
                    return Optional.of(line);
                }
            }
            return Optional.empty();
        } catch (IOException | java.io.UncheckedIOException e) {
            return Optional.empty();
        }
    }

    private static long lines(Path path) {
        try (Stream<String> lines = Files.lines(path, StandardCharsets.UTF_8)) {
            return lines.filter(line -> !line.isBlank()).count();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }
}
