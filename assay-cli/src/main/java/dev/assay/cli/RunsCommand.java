package dev.assay.cli;

import dev.assay.Json;
import dev.assay.OwnerOnly;
import dev.assay.queue.CaseQueue;
import dev.assay.report.Reporter;
import dev.assay.report.Reporters;
import dev.assay.report.RunReport;
import dev.assay.report.TranscriptExport;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.InterruptedRuns;
import dev.assay.score.Reducer;
import dev.assay.store.RunIds;
import dev.assay.store.RunQuery;
import dev.assay.store.Store;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code assay runs list|show|compare|cancel|delete|export|prune}: the stored runs and their kept workspaces. */
@Command(
        name = "runs",
        mixinStandardHelpOptions = true,
        description = "List, show, compare, cancel, delete and export stored runs; prune their kept workspaces.",
        subcommands = {
            RunsCommand.ListRuns.class,
            RunsCommand.ShowRun.class,
            RunsCompareCommand.class,
            RunsCommand.CancelRun.class,
            RunsCommand.DeleteRun.class,
            RunsCommand.ExportRun.class,
            PruneWorkspaces.class
        })
final class RunsCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List runs, newest first.")
    static final class ListRuns implements Callable<Integer> {
        /** The status column is as wide as the longest status, so every row's columns line up under the header. */
        private static final int STATUS_WIDTH = Arrays.stream(RunStatus.values())
                .mapToInt(status -> status.wireName().length())
                .max()
                .orElseThrow();

        private static final String ROW = "%-32s %-" + STATUS_WIDTH + "s %-10s %-24s %-20s %8s %11s";

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Mixin
        DatabaseOption database;

        @Option(names = "--model", paramLabel = "<text>", description = "Only models whose name contains this.")
        String model;

        @Option(
                names = "--status",
                paramLabel = "<status>",
                description = "running, finished, failed, cancelled or interrupted.")
        RunStatus status;

        @Option(names = "--user-id", paramLabel = "<id>", description = "Only runs of this user.")
        String userId;

        @Option(
                names = "--kind",
                paramLabel = "<kind>",
                converter = OptionValues.RunKind.class,
                description = "capability or dialog.")
        dev.assay.result.RunKind kind;

        @Option(
                names = "--limit",
                paramLabel = "<n>",
                defaultValue = "20",
                converter = OptionValues.AtLeastOne.class,
                description = "At most this many, up to 1000 (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(
                names = "--offset",
                paramLabel = "<n>",
                defaultValue = "0",
                converter = OptionValues.NotNegative.class,
                description = "Skip this many.")
        int offset;

        @Option(names = "--format", paramLabel = "<format>", defaultValue = "table", description = "table or json.")
        OutputFormats.Table format;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Store store = database.open()) {
                var query = new RunQuery(userId, model, status, kind, null, null, offset, Math.min(limit, 1000));
                List<Run> runs = store.listRuns(query);
                if (format == OutputFormats.Table.json) {
                    out.println(Json.write(java.util.Map.of("runs", runs, "total", store.countRuns(query))));
                    return ExitCodes.OK;
                }
                // The error column is there when a listed run has an error: why it failed or was interrupted.
                boolean errors = runs.stream().anyMatch(run -> run.error() != null);
                String header = ROW.formatted("run_id", "status", "kind", "model", "case_set", "total", "items");
                out.println(errors ? header + "  error" : header);
                for (Run run : runs) {
                    String row = ROW.formatted(
                            run.runId(),
                            run.status().wireName(),
                            run.kind().wireName(),
                            cut(run.modelName(), 24),
                            cut(run.caseSet(), 20),
                            // A run that judged nothing has no score: 0 % would read as a result.
                            run.totalScore() == null || run.counts().everyJudgedItemIsAnError()
                                    ? "-"
                                    : "%.1f%%".formatted(run.totalScore() * 100),
                            // Items with an outcome out of those selected: a run that was killed or cancelled
                            // holds fewer than it selected, and its counts are those of its stored items.
                            run.counts().completed() + "/" + run.counts().total());
                    out.println(run.error() != null ? row + "  " + TerminalText.line(errorType(run)) : row);
                }
                out.printf("%d of %d runs%n", runs.size(), store.countRuns(query));
                return ExitCodes.OK;
            }
        }
    }

    /**
     * {@return why a run ended without a result, as a problem type: its items' most frequent error type when every
     * judged item was an error ({@code run.all_items_errored}), else the run's own error type; empty for none}
     */
    static String errorType(Run run) {
        if (run.error() == null) {
            return "";
        }
        Object itemsType = run.error().details().get("error_type");
        return itemsType != null ? String.valueOf(itemsType) : run.error().type();
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one run's summary and items.")
    static final class ShowRun implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Mixin
        DatabaseOption database;

        @Parameters(paramLabel = "<run-id>", description = "The run id (a unique prefix is enough).")
        String runId;

        @Option(
                names = "--format",
                paramLabel = "<format>",
                defaultValue = "table",
                description = "table, or json (the report.json document).")
        OutputFormats.Table format;

        @Option(
                names = {"-o", "--out"},
                paramLabel = "<dir>",
                description = "Also write the reports here.")
        Path out;

        @Option(
                names = "--cluster-by",
                paramLabel = "<field>",
                description = "Also show each dimension's standard error and 95%% interval clustered by this case "
                        + "field (dimension, language, a field of the case file, or a FIELD:VALUE tag).")
        String clusterBy;

        @Option(
                names = "--reducer",
                paramLabel = "<name>",
                converter = OptionValues.ReducerName.class,
                description = "Also show each dimension's score with each case counted once, its samples reduced by "
                        + "mean, majority, max, pass_at_k or pass_hat_k (k = the run's samples).")
        Reducer reducer;

        @Override
        public Integer call() throws Exception {
            if (out != null) {
                OutputDirectories.requireWritable(spec.commandLine(), "--out", out);
            }
            try (Store store = database.open()) {
                String id = RunIds.resolve(store, runId);
                RunReport report = RunReport.load(store, id);
                if (out != null) {
                    Reporters.builtins().writeAll(report, out);
                }
                PrintWriter writer = spec.commandLine().getOut();
                if (format == OutputFormats.Table.json) {
                    printJson(report, out, writer);
                } else {
                    Summary.print(writer, report, "table", out);
                    printWorkers(database.url(), id, writer);
                    if (clusterBy != null) {
                        Summary.printSpreads(
                                writer, "clustered by " + clusterBy, report.spreads(null, clusterBy, report.cases()));
                    }
                    if (reducer != null) {
                        Summary.printSpreads(
                                writer,
                                "samples reduced by " + reducer.wireName() + " (k = " + report.samples() + ")",
                                report.spreads(reducer, null, Map.of()));
                    }
                    // A line per item, flushed once: the command line's writer flushes every line it prints.
                    var lines = new PrintWriter(writer, false);
                    report.briefItems()
                            .forEach(item -> lines.printf(
                                    "  %-9s %-28s %s  %s%n",
                                    item.status().wireName(),
                                    TerminalText.line(item.caseId()),
                                    Summary.itemScore(report.run(), item),
                                    cut(oneLine(item.finalAnswer()), 60)));
                    lines.flush();
                }
                return ExitCodes.OK;
            }
        }
    }

    /**
     * Prints the workers that ran a queued run's cases, and how many each; nothing for a run that was not queued (or a
     * database without a queue).
     */
    private static void printWorkers(String url, String runId, PrintWriter writer) {
        // The queue and its counts exist on PostgreSQL only.
        if (!url.startsWith("jdbc:postgresql://")) {
            return;
        }
        Map<String, Integer> workers;
        try (CaseQueue queue = CaseQueue.open(url)) {
            workers = queue.workersOf(runId);
        }
        if (!workers.isEmpty()) {
            writer.printf(
                    "  run by %d worker%s: %s%n",
                    workers.size(),
                    workers.size() == 1 ? "" : "s",
                    workers.entrySet().stream()
                            .map(worker -> worker.getKey() + " " + worker.getValue() + " cases")
                            .collect(Collectors.joining(", ")));
        }
    }

    /**
     * Prints the report.json document of a run: the one just written to {@code out}, when the reports were, else one
     * written to a temporary file. A large run's document (180 MB at 100 000 items) is neither held in memory, as it
     * was when made in memory and printed as one string, nor made twice.
     */
    private static void printJson(RunReport report, Path out, PrintWriter writer) throws IOException {
        Reporter json = Reporters.builtins().get("json");
        if (out != null) {
            print(out.resolve(json.fileName()), writer);
            return;
        }
        Path file = Files.createTempFile("assay-report-", ".json");
        try {
            try (OutputStream document = Files.newOutputStream(file)) {
                json.write(report, document);
            }
            print(file, writer);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void print(Path document, PrintWriter writer) throws IOException {
        try (Reader text = Files.newBufferedReader(document, StandardCharsets.UTF_8)) {
            text.transferTo(writer);
        }
        writer.println();
    }

    @Command(
            name = "cancel",
            mixinStandardHelpOptions = true,
            description = "Give up an interrupted run (its process died): it ends cancelled, its finished items kept. "
                    + "A run still running is cancelled where it runs (Ctrl-C, or the server's cancel).")
    static final class CancelRun extends OneRun {
        @Override
        int act(Store store, String id, PrintWriter out) {
            Run cancelled = InterruptedRuns.cancel(store, id);
            out.println("cancelled run " + cancelled.runId() + "; "
                    + cancelled.counts().completed() + " finished items kept");
            return ExitCodes.OK;
        }
    }

    /** A command on one stored run, named by its id or a unique prefix of it. */
    abstract static class OneRun implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Mixin
        DatabaseOption database;

        @Parameters(paramLabel = "<run-id>", description = "The run id (a unique prefix is enough).")
        String runId;

        @Override
        public Integer call() {
            try (Store store = database.open()) {
                return act(
                        store, RunIds.resolve(store, runId), spec.commandLine().getOut());
            }
        }

        /** {@return the exit code} after acting on the run {@code id} */
        abstract int act(Store store, String id, PrintWriter out);
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a run and its items.")
    static final class DeleteRun extends OneRun {
        @Override
        int act(Store store, String id, PrintWriter out) {
            // The store refuses a run that is running (run.still_running, a usage error): checked and deleted in one
            // statement, so a process that starts writing it meanwhile cannot lose it.
            store.deleteRun(id);
            out.println("deleted run " + id);
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "export",
            mixinStandardHelpOptions = true,
            description = "Write a run's transcripts as a replay file for 'assay run --replay'.")
    static final class ExportRun implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Mixin
        DatabaseOption database;

        @Parameters(paramLabel = "<run-id>", description = "The run id (a unique prefix is enough).")
        String runId;

        @Option(
                names = "--transcripts",
                required = true,
                paramLabel = "<file>",
                description = "The JSONL file to write: one line per judged item.")
        Path file;

        @Option(
                names = "--workspace-dir",
                paramLabel = "<dir>",
                description = "Where the run's workspaces were created, to export the files of kept workspaces "
                        + "(default: $ASSAY_HOME/workspaces).")
        Path workspaceDir;

        @Override
        public Integer call() throws Exception {
            try (Store store = database.open()) {
                String id = RunIds.resolve(store, runId);
                Path workspaces =
                        workspaceDir != null ? workspaceDir : database.home().resolve("workspaces");
                if (file.toAbsolutePath().getParent() != null) {
                    OwnerOnly.createDirectories(file.toAbsolutePath().getParent());
                }
                // Transcripts are the user's alone, whatever the umask; a file that exists keeps its mode.
                OwnerOnly.createFile(file);
                int written;
                try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                    written = TranscriptExport.write(store, id, workspaces, out);
                }
                spec.commandLine().getOut().printf("wrote %d transcripts of run %s to %s%n", written, id, file);
                return ExitCodes.OK;
            }
        }
    }

    /** {@return a table's cell: the text on one line, its control characters escaped, cut to {@code max}} */
    static String cut(String text, int max) {
        String cell = TerminalText.line(text);
        return cell.length() <= max ? cell : cell.substring(0, max - 1) + "…";
    }

    static String oneLine(String text) {
        return text.replaceAll("\\s+", " ").strip();
    }
}
