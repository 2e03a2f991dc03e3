package dev.assay.cli;

import dev.assay.Json;
import dev.assay.store.ResponseStats;
import dev.assay.store.Store;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code assay cache stats|clear}: the model answers kept in the database, which runs reuse within themselves (when
 * resumed) and, with {@code run --cache}, across runs.
 */
@Command(
        name = "cache",
        mixinStandardHelpOptions = true,
        description = "The model answers kept in the database.",
        subcommands = {CacheCommand.Stats.class, CacheCommand.Clear.class})
final class CacheCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }

    @Command(
            name = "stats",
            mixinStandardHelpOptions = true,
            description = "How many answers are kept, and since when.")
    static final class Stats implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        DatabaseOption database;

        @Option(names = "--format", paramLabel = "<format>", defaultValue = "text", description = "text or json.")
        OutputFormats.Text format;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            ResponseStats stats;
            try (Store store = database.open()) {
                stats = store.responseStats();
            }
            if (format == OutputFormats.Text.json) {
                var node = new LinkedHashMap<String, Object>();
                node.put("responses", stats.responses());
                node.put("runs", stats.runs());
                node.put(
                        "oldest", stats.oldest() == null ? null : stats.oldest().toString());
                node.put(
                        "newest", stats.newest() == null ? null : stats.newest().toString());
                out.println(Json.write(node));
            } else if (stats.responses() == 0) {
                out.println("no model answers are kept");
            } else {
                out.printf(
                        "%d model answers kept from %d runs, %s to %s%n",
                        stats.responses(), stats.runs(), stats.oldest(), stats.newest());
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "clear", mixinStandardHelpOptions = true, description = "Forget kept answers.")
    static final class Clear implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        DatabaseOption database;

        @Option(
                names = "--older-than",
                paramLabel = "<days>",
                description = "Forget only answers kept more than this many days ago (default: all).")
        Integer olderThanDays;

        @Override
        public Integer call() {
            if (olderThanDays != null && olderThanDays < 0) {
                throw new picocli.CommandLine.ParameterException(
                        spec.commandLine(), "--older-than must be 0 or more days");
            }
            Instant before = olderThanDays == null ? null : Instant.now().minus(Duration.ofDays(olderThanDays));
            int cleared;
            try (Store store = database.open()) {
                cleared = store.clearResponses(before);
            }
            spec.commandLine().getOut().printf("forgot %d model answers%n", cleared);
            return ExitCodes.OK;
        }
    }
}
