package dev.assay.cli;

import dev.assay.store.RunIds;
import dev.assay.store.Store;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code assay runs prune}: deletes the case workspaces runs kept ({@code <workspace dir>/<run id>/}, those of failed
 * cases by default), by age, by run, or both, so that they do not pile up. A run still running keeps its workspaces.
 */
@Command(
        name = "prune",
        mixinStandardHelpOptions = true,
        description = "Delete the case workspaces runs kept (those of failed cases; every case's with "
                + "--keep-workspaces): older than an age, of the runs named, or both.")
final class PruneWorkspaces implements Callable<Integer> {
    private static final Pattern AGE = Pattern.compile("(\\d+)([dhm]?)");

    @Spec
    CommandSpec spec;

    @Mixin
    DatabaseOption database;

    @Parameters(
            arity = "0..*",
            paramLabel = "<run-id>",
            description = "Only the workspaces of these runs (a unique prefix is enough).")
    List<String> runIds = new ArrayList<>();

    @Option(
            names = "--older-than",
            paramLabel = "<age>",
            description = "Only workspaces last changed longer ago than this: 7d, 12h, 30m (a number alone is days).")
    String olderThan;

    @Option(
            names = "--workspace-dir",
            paramLabel = "<dir>",
            description = "Where the runs' workspaces were created (default: $ASSAY_HOME/workspaces).")
    Path workspaceDir;

    @Option(names = "--dry-run", description = "Say what would be deleted, and delete nothing.")
    boolean dryRun;

    @Override
    public Integer call() throws IOException {
        if (runIds.isEmpty() && olderThan == null) {
            throw new ParameterException(
                    spec.commandLine(), "Say which workspaces to delete: --older-than <age>, run ids, or both");
        }
        Instant cutoff = olderThan == null ? null : Instant.now().minus(age(olderThan));
        Path root = workspaceDir != null ? workspaceDir : database.home().resolve("workspaces");
        PrintWriter out = spec.commandLine().getOut();
        List<Path> kept = runDirectories(root);
        int pruned = 0;
        long bytes = 0;
        try (Store store = database.open()) {
            Set<String> only = named(store, kept);
            for (Path directory : kept) {
                String runId = directory.getFileName().toString();
                if (!only.isEmpty() && !only.contains(runId)) {
                    continue;
                }
                if (cutoff != null
                        && !Files.getLastModifiedTime(directory).toInstant().isBefore(cutoff)) {
                    continue;
                }
                if (store.findRun(runId).map(run -> !run.status().isFinal()).orElse(false)) {
                    spec.commandLine().getErr().println("kept " + directory + ": run " + runId + " is running");
                    continue;
                }
                long size = size(directory);
                int cases = runDirectories(directory).size();
                if (!dryRun) {
                    Workspace.deleteTree(directory);
                }
                out.printf(
                        Locale.ROOT,
                        "%s %s (%d case workspaces, %s)%n",
                        dryRun ? "would delete" : "deleted",
                        directory,
                        cases,
                        mebibytes(size));
                pruned++;
                bytes += size;
            }
        }
        out.printf(
                Locale.ROOT,
                "%s the workspaces of %d runs, %s, in %s%n",
                dryRun ? "would delete" : "deleted",
                pruned,
                mebibytes(bytes),
                root);
        return ExitCodes.OK;
    }

    /**
     * {@return the run ids given, as the directories they name}: a run's id or a unique prefix, as every command takes
     * it, or the whole name of a kept directory whose run was deleted from the database
     */
    private Set<String> named(Store store, List<Path> kept) {
        Set<String> names = new LinkedHashSet<>();
        for (String given : runIds) {
            boolean directory =
                    kept.stream().anyMatch(path -> path.getFileName().toString().equals(given));
            names.add(directory ? given : RunIds.resolve(store, given));
        }
        return names;
    }

    private Duration age(String text) {
        Matcher matcher = AGE.matcher(text.strip());
        if (!matcher.matches()) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--older-than takes an age such as 7d, 12h or 30m (a number alone is days), not '" + text + "'");
        }
        return Ages.of(Long.parseLong(matcher.group(1)), matcher.group(2), ChronoUnit.DAYS);
    }

    /** {@return the directories directly in {@code parent}, sorted by name; none when it does not exist} */
    private static List<Path> runDirectories(Path parent) throws IOException {
        if (!Files.isDirectory(parent)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(parent)) {
            return entries.filter(path -> Files.isDirectory(path, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .sorted()
                    .toList();
        }
    }

    /** {@return the bytes of the regular files below {@code directory}, links not followed} */
    private static long size(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            return paths.filter(path -> Files.isRegularFile(path, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .mapToLong(path -> {
                        try {
                            return Files.size(path);
                        } catch (IOException gone) {
                            // A file that went away while walking takes no room.
                            return 0L;
                        }
                    })
                    .sum();
        }
    }

    private static String mebibytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
