package dev.assay.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.SuiteLoad;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The case sets a client may run: the entries of the configured suites directory. A body names one by its path relative
 * to that directory; absolute paths, {@code ..} and symlinks leading out are refused, so HTTP can never make the server
 * read an arbitrary file. An entry's listing is kept while none of its files changed: loading a suite reads and
 * validates every case (a 100 000-case file takes seconds), and the page asks for the list each time it opens.
 * Thread-safe.
 */
final class CaseSets {
    /** Problems listed per entry; {@code problem_count} has them all ({@code assay cases validate} lists each). */
    static final int LISTED_PROBLEMS = 20;

    private final Path directory;
    private final Function<Path, SuiteLoad> loader;
    private final Map<Path, Listed> listed = new ConcurrentHashMap<>();

    /** An entry's listing and the state of the files it was made from. */
    private record Listed(List<FileState> files, ObjectNode entry) {}

    /**
     * What tells that a file changed: its identity, size, modification time, and where the file system keeps one, its
     * status change time, which no tool can set back (a file replaced by an archive's copy keeps its size and
     * modification time, and often its inode).
     */
    private record FileState(Path path, Object fileKey, long size, FileTime modified, Object changed) {}

    /**
     * A file modified this recently may change again within its file system's clock tick without its modification time
     * moving (1 s on some, 2 s on FAT): its entry is listed but not kept.
     */
    private static final Duration RACY = Duration.ofSeconds(2);

    private static final boolean STATUS_CHANGE_TIMES =
            FileSystems.getDefault().supportedFileAttributeViews().contains("unix");

    CaseSets(Path directory, CheckerRegistry checkers) {
        this(directory, path -> new SuiteLoader(checkers).load(path));
    }

    /** @param loader loads one entry (a directory or a case file) */
    CaseSets(Path directory, Function<Path, SuiteLoad> loader) {
        this.directory = directory;
        this.loader = loader;
    }

    /**
     * {@return the file or directory a case-set name refers to}
     *
     * @throws AssayException {@code request.invalid_field} for a name leading outside, {@code case_set.not_found}
     */
    Path resolve(String name) {
        if (!Files.isDirectory(directory)) {
            throw new AssayException(Problem.of(
                            "case_set.not_found",
                            "the suites directory " + directory + " does not exist; start the server with --suites DIR")
                    .withDetail("field", "case_set"));
        }
        Path path;
        try {
            path = new Workspace(directory).resolve(name);
        } catch (AssayException escape) {
            throw ApiProblems.badField(
                    "case_set", "case_set must be a path inside the suites directory, got '" + name + "'");
        }
        if (!Files.exists(path)) {
            throw new AssayException(Problem.of("case_set.not_found", "no case set '" + name + "'; see GET /api/suites")
                    .withDetail("field", "case_set"));
        }
        return path;
    }

    /**
     * {@return one entry per directory or case file directly inside the suites directory, sorted by name}; an entry
     * with problems (an empty directory, a file that does not parse) is listed with them, never failing the list, and
     * names files relative to the suites directory only
     */
    ArrayNode list() {
        ArrayNode sets = Json.MAPPER.createArrayNode();
        if (!Files.isDirectory(directory)) {
            return sets;
        }
        Set<Path> present = new HashSet<>();
        try (Stream<Path> entries = Files.list(directory)) {
            entries.filter(path -> Files.isDirectory(path) || isCaseFile(path))
                    .sorted()
                    .forEach(path -> {
                        present.add(path);
                        sets.add(entry(path));
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        listed.keySet().retainAll(present);
        return sets;
    }

    /**
     * The entry's listing, kept or made again: its files' state is read before the load, so a change made meanwhile is
     * seen at the next listing.
     */
    private ObjectNode entry(Path path) {
        Instant read = Instant.now();
        List<FileState> files = fileStates(path);
        Listed kept = listed.get(path);
        if (kept == null || files == null || !kept.files().equals(files)) {
            kept = new Listed(files, describe(directory.relativize(path).toString(), path));
            if (files != null && settled(files, read)) {
                listed.put(path, kept);
            } else {
                listed.remove(path);
            }
        }
        return kept.entry().deepCopy();
    }

    private static boolean settled(List<FileState> files, Instant read) {
        Instant recent = read.minus(RACY);
        return files.stream().allMatch(file -> file.modified().toInstant().isBefore(recent));
    }

    /**
     * {@return the state of every regular file under an entry, in order}, or null when it cannot be read (the load
     * reports why, and its listing is not kept)
     */
    private static List<FileState> fileStates(Path path) {
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.sorted()
                    .map(CaseSets::fileState)
                    .filter(Objects::nonNull)
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
    }

    private static FileState fileState(Path path) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            if (!attributes.isRegularFile()) {
                return null;
            }
            return new FileState(
                    path,
                    attributes.fileKey(),
                    attributes.size(),
                    attributes.lastModifiedTime(),
                    STATUS_CHANGE_TIMES ? Files.getAttribute(path, "unix:ctime") : null);
        } catch (NoSuchFileException goneOrDangling) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ObjectNode describe(String name, Path path) {
        SuiteLoad load = loader.apply(path);
        var languages = new TreeSet<String>();
        Map<String, Integer> dimensions = new TreeMap<>();
        for (Case evalCase : load.suite().cases()) {
            if (!evalCase.language().isEmpty()) {
                languages.add(evalCase.language());
            }
            dimensions.merge(evalCase.dimension(), 1, Integer::sum);
        }
        ObjectNode node = Json.object();
        node.put("name", name);
        node.set("languages", Json.tree(languages));
        node.put("language", languages.size() == 1 ? languages.first() : "");
        node.set("dimensions", Json.tree(dimensions));
        node.put(
                "case_count",
                dimensions.values().stream().mapToInt(Integer::intValue).sum());
        node.put("problem_count", load.problems().size());
        node.put("runnable", !load.suite().cases().isEmpty());
        ArrayNode problems = node.putArray("problems");
        load.problems().stream().limit(LISTED_PROBLEMS).forEach(problem -> problems.add(describe(problem)));
        return node;
    }

    private ObjectNode describe(CaseProblem problem) {
        ObjectNode node = Json.object();
        node.put("type", problem.type());
        node.put("file", withoutDirectory(problem.source().file()));
        node.put("line", problem.source().line());
        node.put("case_id", problem.caseId());
        node.put("field", problem.field());
        node.put("message", withoutDirectory(problem.message()));
        return node;
    }

    /** The text with the suites directory's path taken out: a client learns names inside it, nothing about the host. */
    private String withoutDirectory(String text) {
        String absolute = directory.toAbsolutePath().normalize() + java.io.File.separator;
        return text.replace(absolute, "").replace(directory + java.io.File.separator, "");
    }

    private static boolean isCaseFile(Path path) {
        String name = path.getFileName().toString();
        return name.endsWith(".json") || name.endsWith(".jsonl") || name.endsWith(".yaml") || name.endsWith(".yml");
    }
}
