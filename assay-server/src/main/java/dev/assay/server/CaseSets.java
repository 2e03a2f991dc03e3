package dev.assay.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.SourceRef;
import dev.assay.cases.Suite;
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
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The case sets a client may run: the entries of the configured suites directory. A body names one by its path relative
 * to that directory; absolute paths, {@code ..} and symlinks leading out are refused, and so is a directory holding a
 * case file that is a symlink leading out, so HTTP can never make the server read an arbitrary file. An entry's listing
 * is kept while none of its files changed: loading a suite reads and validates every case (a 100 000-case file takes
 * seconds), and the page asks for the list each time it opens. Thread-safe.
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
     * @throws AssayException {@code request.invalid_field} for a name leading outside or a directory holding a case
     *     file that leads outside ({@link #outsideFiles}), {@code case_set.not_found}
     */
    Path resolve(String name) {
        if (!Files.isDirectory(directory)) {
            throw new AssayException(Problem.of(
                            "case_set.not_found",
                            "the suites directory " + directory + " does not exist; start the server with --suites DIR")
                    .withDetail("field", "case_set"));
        }
        var suites = new Workspace(directory);
        Path path;
        try {
            path = suites.resolve(name);
        } catch (AssayException escape) {
            throw ApiProblems.badField(
                    "case_set", "case_set must be a path inside the suites directory, got '" + name + "'");
        }
        if (!Files.exists(path)) {
            throw new AssayException(Problem.of("case_set.not_found", "no case set '" + name + "'; see GET /api/suites")
                    .withDetail("field", "case_set"));
        }
        List<String> outside = outsideFiles(Path.of(suites.relativize(path)));
        if (!outside.isEmpty()) {
            throw ApiProblems.badField(
                    "case_set", "case_set must hold only files inside the suites directory: " + inWords(outside));
        }
        return path;
    }

    /**
     * {@return the case files the suite loader would read from an entry that lie outside the suites directory, named
     * relative to it}: the loader follows a symlink to a file (the command line reads the user's own files, links
     * included), so the server keeps its boundary for every file of a case set, not only for the name it is given. Of
     * an entry the loader reads the entry itself when it is a file, and below a directory each case file, following
     * links to files but not to directories ({@link dev.assay.cases.SuiteLoader}). An entry that is itself a link
     * leading outside, to a directory as well as to a file, is the one such file. A file whose real path cannot be told
     * (gone meanwhile, unreadable) is counted as outside, since it cannot be shown to be inside.
     *
     * @param entry the entry's path relative to the suites directory
     */
    List<String> outsideFiles(Path entry) {
        Path root;
        try {
            root = directory.toRealPath();
        } catch (IOException e) {
            return List.of(slashed(entry));
        }
        Path start = root.resolve(entry).normalize();
        if (Files.isSymbolicLink(start) && !isInside(start, root)) {
            return List.of(slashed(entry));
        }
        try (Stream<Path> walk = Files.walk(start)) {
            return walk.filter(file -> Files.isRegularFile(file) && (file.equals(start) || isCaseFile(file)))
                    .filter(file -> !isInside(file, root))
                    .sorted()
                    .map(file -> slashed(root.relativize(file)))
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            // The loader cannot list the directory either: it reads nothing from it and reports why.
            return List.of();
        }
    }

    /** {@return files leading outside in words}: the first and how many more, so that a message stays short */
    static String inWords(List<String> outside) {
        String more = outside.size() == 1 ? "" : " (and " + (outside.size() - 1) + " more)";
        return "'" + outside.getFirst() + "' is a link leading outside the suites directory" + more;
    }

    private static boolean isInside(Path file, Path root) {
        try {
            return file.toRealPath().startsWith(root);
        } catch (IOException e) {
            return false;
        }
    }

    private static String slashed(Path relative) {
        return relative.toString().replace('\\', '/');
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
            kept = new Listed(files, describe(directory.relativize(path), path));
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

    /**
     * The entry as listed. One that holds a file leading outside the suites directory is not loaded at all, since a
     * start refuses it ({@link #resolve}) and a listing must not tell what such a file holds (its cases, or a parse
     * error quoting it): it is listed with one problem per such file.
     */
    private ObjectNode describe(Path name, Path path) {
        List<String> outside = outsideFiles(name);
        if (!outside.isEmpty()) {
            return describe(
                    slashed(name),
                    List.of(),
                    outside.stream()
                            .map(file -> new CaseProblem(
                                    "suite.outside",
                                    new SourceRef(file, 0),
                                    "",
                                    "",
                                    "the file or directory is a link leading outside the suites directory; the "
                                            + "server does not read it",
                                    "a file inside the suites directory"))
                            .toList());
        }
        SuiteLoad load = loader.apply(path);
        return describe(slashed(name), load.suite().cases(), load.problems());
    }

    private ObjectNode describe(String name, List<Case> cases, List<CaseProblem> problems) {
        Suite.Breakdown breakdown = Suite.Breakdown.of(cases);
        var languages = breakdown.languages();
        var dimensions = breakdown.casesByDimension();
        ObjectNode node = Json.object();
        node.put("name", name);
        node.set("languages", Json.tree(languages));
        node.put("language", languages.size() == 1 ? languages.first() : "");
        node.set("dimensions", Json.tree(dimensions));
        node.put(
                "case_count",
                dimensions.values().stream().mapToInt(Integer::intValue).sum());
        node.put("problem_count", problems.size());
        node.put("runnable", !cases.isEmpty());
        ArrayNode shown = node.putArray("problems");
        problems.stream().limit(LISTED_PROBLEMS).forEach(problem -> shown.add(describe(problem)));
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

    /**
     * {@return the problem with the suites directory's path taken out of its message and its text details}, as
     * {@link #withoutDirectory(String)}: for a suite's problems met while a run is prepared
     */
    Problem withoutDirectory(Problem problem) {
        return problem.withTextRewritten(this::withoutDirectory);
    }

    /** The text with the suites directory's path taken out: a client learns names inside it, nothing about the host. */
    String withoutDirectory(String text) {
        String absolute = directory.toAbsolutePath().normalize() + java.io.File.separator;
        return text.replace(absolute, "").replace(directory + java.io.File.separator, "");
    }

    /** As the suite loader tells them, whatever the case of the extension. */
    private static boolean isCaseFile(Path path) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".json") || name.endsWith(".jsonl") || name.endsWith(".yaml") || name.endsWith(".yml");
    }
}
