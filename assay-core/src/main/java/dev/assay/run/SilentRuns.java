package dev.assay.run;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.run.internal.WeightedScore;
import dev.assay.score.Scores;
import dev.assay.store.RunLife;
import dev.assay.store.RunOwner;
import dev.assay.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Ends the runs whose process died: a run stored as running whose process was of this host and has ended
 * ({@link RunOwner#endedHere}: its PID gone or taken by another process), or that has given no sign of life for longer
 * than the silence allowed (the engine beats every {@link Engine#HEARTBEAT}; a process on another host can only be
 * waited out), becomes {@code interrupted}, its counts and scores recomputed from the items it stored, so they equal
 * what is kept and the run can be resumed or deleted. Front ends call it when they open the store. Thread-safe
 * (stateless).
 */
public final class SilentRuns {
    /** The default silence: six missed heartbeats, far beyond a slow write or a paused JVM. */
    public static final Duration DEFAULT_SILENCE = Duration.ofSeconds(60);

    private static final int PAGE = 500;

    private SilentRuns() {}

    /** {@return the runs ended as interrupted, in their final form} */
    public static List<Run> interrupt(Store store, Duration silence) {
        var ended = new ArrayList<Run>();
        Instant since = Instant.now().minus(silence);
        for (RunLife life : store.runningRuns()) {
            String why;
            if (life.owner() != null && life.owner().endedHere()) {
                why = "process " + life.owner().pid() + " of this host, which ran it, has ended";
            } else if (life.lastSign().isBefore(since)) {
                why = "no sign of life for " + silence.toSeconds() + " s";
            } else {
                continue;
            }
            store.findRun(life.runId())
                    .filter(run -> run.status() == RunStatus.RUNNING)
                    .ifPresent(run -> {
                        Run interrupted = recounted(store, run, why);
                        // Resumed by another process since it was read: that process's record stands.
                        if (store.updateRunIf(interrupted, RunStatus.RUNNING)) {
                            ended.add(interrupted);
                        }
                    });
        }
        return ended;
    }

    /**
     * {@return {@code run} as stored now, once it has ended}: a run stored as running whose process has died is ended
     * first ({@link #interrupt}), so that it can be resumed at once
     *
     * @throws AssayException {@code run.still_running} ({@link #stillRunning}) when its process may be alive
     */
    public static Run ended(Store store, Run run, Duration silence) {
        if (run.status() != RunStatus.RUNNING) {
            return run;
        }
        interrupt(store, silence);
        Run now = store.findRun(run.runId()).orElse(run);
        if (now.status() == RunStatus.RUNNING) {
            throw new AssayException(stillRunning(store, now, silence));
        }
        return now;
    }

    /**
     * {@return the problem that refuses to resume {@code run}, which is stored as running}: {@code run.still_running},
     * saying which process runs it and, unless that process is of this host (then known alive: {@link #interrupt} would
     * have ended the run otherwise), in how many seconds of further silence it is taken for dead (its detail
     * {@code dead_in_s})
     */
    static Problem stillRunning(Store store, Run run, Duration silence) {
        Optional<RunLife> life = store.runningRuns().stream()
                .filter(running -> running.runId().equals(run.runId()))
                .findFirst();
        RunOwner owner = life.map(RunLife::owner).orElse(null);
        String running = "run " + run.runId() + " is still running";
        if (owner != null && owner.isHere()) {
            return Problem.of(
                            "run.still_running",
                            running + (owner.isCurrent() ? " in this process" : " in process " + owner.pid())
                                    + " of this host; it can be resumed once that process has ended")
                    .withDetail("run_id", run.runId())
                    .withDetail("pid", owner.pid());
        }
        long seconds = life.map(signs -> Math.max(
                        0,
                        Duration.between(Instant.now(), signs.lastSign().plus(silence))
                                .toSeconds()))
                .orElse(0L);
        return Problem.of(
                        "run.still_running",
                        running + (owner == null ? "" : " in process " + owner.pid() + " on " + owner.hostName())
                                + "; it is taken for ended after " + silence.toSeconds() + " s without a sign of "
                                + "life, in " + seconds + " s if it stays silent, and can be resumed then")
                .withDetail("run_id", run.runId())
                .withDetail("dead_in_s", seconds);
    }

    private static Run recounted(Store store, Run run, String why) {
        Metric.Tally tally = WeightedScore.tally(EvalSpec.of(run).scoring().weights());
        var statuses = new ArrayList<ItemStatus>();
        for (int offset = 0; ; offset += PAGE) {
            List<Item> page = store.listItems(run.runId(), offset, PAGE);
            for (Item item : page) {
                statuses.add(item.status());
                tally.accept(item);
            }
            if (page.size() < PAGE) {
                break;
            }
        }
        Scores scores = tally.result();
        Counts counts = Counts.of(run.counts().total(), statuses);
        Instant now = Instant.now();
        Problem problem = Problem.of(
                        "run.process_died",
                        "the process running this run stopped without ending it (" + why
                                + ": killed, out of memory, power lost or database gone); its " + statuses.size()
                                + " finished items are kept")
                .withDetail("stored", statuses.size());
        return run.withProgress(
                RunStatus.INTERRUPTED,
                scores.dimensionScores(),
                scores.total(),
                counts,
                now,
                Duration.between(run.startedAt(), now).toMillis() / 1000.0,
                problem);
    }
}
