package dev.assay.cases;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.internal.CaseFile;
import dev.assay.cases.internal.CaseReader;
import dev.assay.cases.internal.ReferenceFormat;
import dev.assay.cases.internal.RowReader;
import dev.assay.cases.internal.SpilledCases;
import dev.assay.cases.internal.SuiteVersion;
import dev.assay.cases.internal.Tau2Tasks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Loads case files into a {@link Suite} and reports every problem found, each with file, line, field and a
 * machine-readable type (docs/case-format.md). Reads {@code *.json} (a list of cases, or an object with {@code cases}),
 * {@code *.jsonl} (one case per line) and {@code *.yaml}/{@code *.yml} (a list, or an object with {@code cases});
 * directories are read recursively, files sorted by path. Both case shapes are accepted: Assay's ({@code checker} name
 * + {@code expected}, or {@code checks}) and the reference server's ({@code checker: {type: ...}}), whose files also
 * bring the reference workspace fixtures. One path that a plug-in's {@link SuiteFormat} reads (a promptfoo config) is
 * read by that format instead. Thread-safe.
 */
public final class SuiteLoader {
    private final CheckValidator registry;
    private final ObjectNode caseDefaults;

    /** @param registry the checkers that validate each check's name and {@code expected} */
    public SuiteLoader(CheckValidator registry) {
        this(registry, Json.object());
    }

    private SuiteLoader(CheckValidator registry, ObjectNode caseDefaults) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.caseDefaults = caseDefaults.deepCopy();
    }

    /**
     * {@return a loader that gives each case the fields of {@code caseDefaults} it lacks}, as a run's
     * {@code --environment} gives the domain's environment to the tasks of a τ²-bench file, which has no place for it;
     * a case's own field and its file's {@code defaults} win
     */
    public SuiteLoader withCaseDefaults(ObjectNode caseDefaults) {
        return new SuiteLoader(registry, caseDefaults);
    }

    /** {@return the suite in the given files and directories, with every problem found} */
    public SuiteLoad load(Path... paths) {
        return load(List.of(paths));
    }

    /**
     * {@return the suite in the given files and directories, with every problem found}. A file that does not parse
     * yields one problem and the other files still load; a case with problems is left out of the suite; of two cases
     * with one id the first is kept.
     */
    public SuiteLoad load(List<Path> paths) {
        if (paths.size() == 1) {
            // A suite in another format (a promptfoo config) is read whole by its plug-in.
            Optional<SuiteFormat> format = SuiteFormat.of(paths.getFirst());
            if (format.isPresent()) {
                return format.get().load(paths.getFirst(), registry);
            }
        }
        var problems = new ArrayList<CaseProblem>();
        var caseFiles = new ArrayList<Path>();
        for (Path path : paths) {
            caseFiles.addAll(caseFiles(path, problems));
        }
        var suite = new Read();
        var files = new ArrayList<CaseFile>();
        for (Path path : caseFiles) {
            if (DatasetFormats.isDatasetOnly(path)) {
                problems.add(new CaseProblem(
                        "dataset.missing_mapping",
                        new SourceRef(path.toString(), 0),
                        "",
                        "input_field",
                        "a dataset's rows become cases by a mapping",
                        "--input-field (or --template) and --target-field, or the file's entry under `datasets` in "
                                + "assay.yaml (docs/datasets.md)"));
                continue;
            }
            var read = new FileRead(path.toString(), suite);
            CaseFile file = CaseFile.read(path, path.toString(), read::add);
            files.add(file);
            problems.addAll(file.problems());
            if (file.complete()) {
                read.keep(problems);
            } else {
                read.takeBack();
            }
        }
        if (suite.entries == 0 && problems.isEmpty()) {
            problems.add(new CaseProblem(
                    "suite.empty",
                    new SourceRef(names(paths), 0),
                    "",
                    "",
                    "no cases found",
                    "at least one case in a *.json, *.jsonl, *.yaml or *.yml file"));
        }
        return new SuiteLoad(
                new Suite(
                        name(files, paths),
                        suite.version.finish(suite.fixtures),
                        suite.cases.build(),
                        suite.fixtures,
                        files.stream().map(CaseFile::file).toList()),
                problems,
                suite.notes);
    }

    /** {@return the τ²-bench domain's policy beside a tasks file ({@code policy.md}); empty when there is none} */
    private static String policyBeside(String file) {
        Path policy = Path.of(file).toAbsolutePath().resolveSibling("policy.md");
        try {
            return Files.isRegularFile(policy) ? Files.readString(policy) : "";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * {@return the cases the rows of the given dataset files and directories map to, with every problem found}: each
     * file is read row by row in the format its extension names ({@link DatasetFormat}), so a dataset of any size is
     * read in the memory of one row and its cases spill to a scratch file as a large suite's do. A row with problems is
     * left out, and the other rows still load; a file that cannot be read to its end gives one problem and no rows.
     *
     * @param dataset how rows become cases
     * @throws AssayException {@code dataset.invalid_mapping}, or {@code plugin.unknown} for a checker nobody
     *     registered: a mistake of the mapping, which every row would repeat
     */
    public SuiteLoad load(List<Path> paths, DatasetMapping dataset) {
        dataset.validate();
        validateChecker(dataset);
        var problems = new ArrayList<CaseProblem>();
        var suite = new Read();
        var sources = new ArrayList<String>();
        var files = new ArrayList<Map.Entry<Path, Path>>();
        for (Path path : paths) {
            datasetFiles(path, problems).forEach(file -> files.add(Map.entry(path, file)));
        }
        for (var given : files) {
            Path file = given.getValue();
            String name = file.toString();
            sources.add(name);
            String idPrefix = files.size() == 1 ? "" : baseName(file) + ":";
            String dimension = dataset.dimension() != null ? dataset.dimension() : dimensionOf(given.getKey());
            var rows = new RowReader(dataset, name, idPrefix, dimension, registry);
            var read = new FileRead(name, suite);
            long[] count = {0};
            try {
                DatasetFormat format = DatasetFormats.of(file);
                format.read(file, new DatasetFormat.Rows() {
                    @Override
                    public void row(DatasetRow row) {
                        count[0]++;
                        read.accept(rows.read(row), (int) row.line(), dataset.idField() != null);
                    }

                    @Override
                    public void unreadable(long number, long line, String message) {
                        count[0]++;
                        read.problems.add(new CaseProblem(
                                "case.parse_error",
                                new SourceRef(name, (int) (line > 0 ? line : number)),
                                idPrefix + number,
                                "",
                                message,
                                "a row of the file's format"));
                    }
                });
            } catch (AssayException e) {
                read.takeBack();
                problems.add(new CaseProblem(
                        e.problem().type(),
                        new SourceRef(name, 0),
                        "",
                        "",
                        e.problem().message(),
                        ""));
                continue;
            } catch (JsonProcessingException e) {
                read.takeBack();
                JsonLocation at = e.getLocation();
                problems.add(new CaseProblem(
                        "case.parse_error",
                        new SourceRef(name, at == null ? 0 : Math.max(at.getLineNr(), 0)),
                        "",
                        "",
                        CaseFile.reason(e),
                        "a well-formed file of its format"));
                continue;
            } catch (IOException | RuntimeException e) {
                read.takeBack();
                problems.add(new CaseProblem(
                        "suite.unreadable",
                        new SourceRef(name, 0),
                        "",
                        "",
                        "cannot read the file: " + e.getMessage(),
                        "a readable file of its format"));
                continue;
            }
            if (count[0] == 0) {
                read.problems.add(new CaseProblem(
                        "suite.invalid_file",
                        new SourceRef(name, 0),
                        "",
                        "",
                        "the file holds no rows",
                        "one row or more"));
            }
            read.keep(problems);
        }
        if (files.isEmpty() && problems.isEmpty()) {
            problems.add(new CaseProblem(
                    "suite.empty",
                    new SourceRef(names(paths), 0),
                    "",
                    "",
                    "no dataset file found",
                    "a file of " + String.join(", ", DatasetFormats.extensions())));
        }
        return new SuiteLoad(
                new Suite(names(paths), suite.version.finish(Map.of()), suite.cases.build(), Map.of(), sources),
                problems);
    }

    /** A checker nobody registered is a mistake of the mapping, said once rather than once per row. */
    private void validateChecker(DatasetMapping dataset) {
        try {
            registry.validate(new Check(dataset.checkerName(), null, 1.0));
        } catch (AssayException e) {
            if (e.problem().type().equals("plugin.unknown")) {
                throw new AssayException(e.problem().withDetail("field", "checker"));
            }
            // Any other complaint is about the missing expected answer, which each row gives.
        }
        if (dataset.checkerOptions() == null) {
            return;
        }
        // The options are the same in every row: a mistake in them is said once, judged with a stand-in target.
        JsonNode target = dataset.expectedField() == null
                ? null
                : dataset.choices().isEmpty()
                        ? TextNode.valueOf("x")
                        : Json.object().put("answer", "A").put("letters", "AB");
        try {
            registry.validate(new Check(dataset.checkerName(), dataset.expected(target), 1.0));
        } catch (AssayException e) {
            if (!e.problem().type().equals("check.invalid_expected")) {
                throw e;
            }
            Object field = e.problem().details().get("field");
            throw new AssayException(Problem.of(
                            "dataset.invalid_mapping",
                            "`checker_options` of " + dataset.checkerName() + ": "
                                    + e.problem().message())
                    .withDetail("field", "checker_options" + (field == null ? "" : "." + field)));
        }
    }

    /** {@return a dataset path's files}: the file itself, or a directory's dataset files, sorted by path */
    private static List<Path> datasetFiles(Path path, List<CaseProblem> problems) {
        if (Files.isRegularFile(path)) {
            return List.of(path);
        }
        return listed(path, DatasetFormats::isDatasetFile, problems);
    }

    /** {@return the dimension a dataset's cases get unless the mapping names one: its name as an identifier} */
    static String dimensionOf(Path path) {
        String name = baseName(path).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]+", "_");
        name = name.replaceFirst("^[^a-z]+", "").replaceFirst("_+$", "");
        return name.isEmpty() ? "dataset" : name;
    }

    /** What the files read so far, to their ends, gave: the cases as they came, hashed as they came. */
    private static final class Read {
        final SpilledCases.Builder cases = new SpilledCases.Builder();
        final SuiteVersion version = new SuiteVersion();
        final Map<String, SourceRef> firstSeen = new HashMap<>();
        final Map<String, String> fixtures = new LinkedHashMap<>();
        final List<String> notes = new ArrayList<>();
        int entries;
    }

    /**
     * One file's entries. Its cases join the suite as they are read, and are taken back if the file fails half-way: a
     * file that cannot be read to its end gives nothing, not half its cases.
     */
    private final class FileRead {
        private final String file;
        private final Read suite;
        private final int casesBefore;
        private final SuiteVersion.Mark versionBefore;
        private final Map<String, SourceRef> firstSeen = new HashMap<>();
        private final List<CaseProblem> problems = new ArrayList<>();
        private boolean referenceShape;
        private Tau2Tasks tau2;
        private int entries;

        FileRead(String file, Read suite) {
            this.file = file;
            this.suite = suite;
            this.casesBefore = suite.cases.size();
            this.versionBefore = suite.version.mark();
        }

        void add(CaseFile.Entry given, String fileLanguage) {
            CaseFile.Entry entry = given;
            if (Tau2Tasks.isTask(given.node())) {
                if (tau2 == null) {
                    tau2 = new Tau2Tasks(policyBeside(file));
                }
                entry = new CaseFile.Entry(tau2.toCase((ObjectNode) given.node()), given.line(), given.fieldLines());
            }
            if (!caseDefaults.isEmpty() && entry.node() instanceof ObjectNode node) {
                ObjectNode filled = node.deepCopy();
                caseDefaults.properties().forEach(field -> {
                    if (!filled.hasNonNull(field.getKey())) {
                        filled.set(field.getKey(), field.getValue().deepCopy());
                    }
                });
                entry = new CaseFile.Entry(filled, entry.line(), entry.fieldLines());
            }
            accept(CaseReader.read(entry, file, fileLanguage, registry), entry.line(), true);
            referenceShape |= ReferenceFormat.isReferenceShape(entry.node());
        }

        /**
         * Takes one entry's outcome.
         *
         * @param line where the entry starts
         * @param checkId whether its id may repeat an earlier one's: not for a row numbered by its position
         */
        void accept(CaseReader.Result result, int line, boolean checkId) {
            entries++;
            var entryProblems = new ArrayList<>(result.problems());
            String id = checkId ? result.caseId() : "";
            SourceRef earlier = id.isEmpty() ? null : suite.firstSeen.getOrDefault(id, firstSeen.get(id));
            if (earlier != null) {
                entryProblems.addFirst(new CaseProblem(
                        "case.duplicate_id",
                        new SourceRef(file, line),
                        id,
                        "id",
                        "the id is already used at " + earlier,
                        "an id unique in the suite"));
            } else if (!id.isEmpty()) {
                firstSeen.put(id, new SourceRef(file, line));
            }
            problems.addAll(entryProblems);
            if (entryProblems.isEmpty()) {
                suite.cases.add(result.evalCase());
                suite.version.add(result.evalCase());
            }
        }

        /** The file was read to its end: its cases stay, with its problems and ids. */
        void keep(List<CaseProblem> suiteProblems) {
            suiteProblems.addAll(problems);
            suite.firstSeen.putAll(firstSeen);
            if (referenceShape) {
                suite.fixtures.putAll(ReferenceFormat.FIXTURES);
            }
            if (tau2 != null && !tau2.unused().isEmpty()) {
                suite.notes.add(file + ": τ²-bench task fields Assay does not use (docs/tau2.md): "
                        + String.join(", ", tau2.unused()));
            }
            suite.entries += entries;
        }

        /** The file failed half-way: its cases and their hashing are taken back. */
        void takeBack() {
            suite.cases.truncate(casesBefore);
            suite.version.reset(versionBefore);
        }
    }

    private static List<Path> caseFiles(Path path, List<CaseProblem> problems) {
        if (Files.isRegularFile(path)) {
            return List.of(path);
        }
        return listed(path, CaseFile::isCaseFile, problems);
    }

    /** {@return the files of a directory that {@code kind} accepts, sorted by path}, or a problem */
    private static List<Path> listed(Path path, Predicate<Path> kind, List<CaseProblem> problems) {
        if (!Files.isDirectory(path)) {
            problems.add(new CaseProblem(
                    "suite.not_found",
                    new SourceRef(path.toString(), 0),
                    "",
                    "",
                    "no such file or directory",
                    "a case file or a directory of case files"));
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.filter(Files::isRegularFile)
                    .filter(kind)
                    .sorted(Comparator.comparing(file -> path.relativize(file).toString()))
                    .toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            problems.add(new CaseProblem(
                    "suite.unreadable",
                    new SourceRef(path.toString(), 0),
                    "",
                    "",
                    "cannot list the directory: " + e.getMessage(),
                    "a readable directory"));
            return List.of();
        }
    }

    /** The files' common {@code case_set} when every one that declares it agrees, else the paths' names. */
    private static String name(List<CaseFile> files, List<Path> paths) {
        Set<String> declared = files.stream()
                .map(CaseFile::caseSet)
                .filter(name -> !name.isEmpty())
                .collect(Collectors.toCollection(LinkedHashSet::new));
        return declared.size() == 1 ? declared.iterator().next() : names(paths);
    }

    private static String names(List<Path> paths) {
        return paths.stream().map(SuiteLoader::baseName).collect(Collectors.joining("+"));
    }

    private static String baseName(Path path) {
        Path fileName = path.toAbsolutePath().normalize().getFileName();
        String name = fileName == null ? path.toString() : fileName.toString();
        int dot = name.lastIndexOf('.');
        return Files.isRegularFile(path) && dot > 0 ? name.substring(0, dot) : name;
    }
}
