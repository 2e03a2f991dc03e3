package dev.assay.run.internal;

import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.run.RunObserver;
import java.util.function.Supplier;

/**
 * Tells a run's listener ({@link RunListener}) and its observer ({@link RunObserver}) what happens to it. Every call is
 * guarded: by their contracts, a listener or an observer that fails never affects the run. Thread-safe when the
 * listener and the observation are.
 */
public final class RunAnnouncer {
    private final RunListener listener;
    private final RunObserver.Observation observation;

    private RunAnnouncer(RunListener listener, RunObserver.Observation observation) {
        this.listener = listener;
        this.observation = observation;
    }

    /** {@return an announcer of {@code run}, whose start it has announced to both} */
    public static RunAnnouncer started(Run run, RunListener listener, RunObserver observer) {
        safely(() -> listener.runStarted(run));
        return new RunAnnouncer(listener, observed(() -> observer.runStarted(run), RunObserver.Observation.NONE));
    }

    /** {@return what observes the item} */
    RunObserver.Trial itemStarted(Run run, String itemId, String prompt) {
        safely(() -> listener.itemStarted(run, itemId, prompt));
        return observed(() -> observation.trialStarted(itemId), RunObserver.Trial.NONE);
    }

    void stepDone(Run run, String itemId, int step, int steps) {
        safely(() -> listener.stepDone(run, itemId, step, steps));
    }

    void itemFinished(Run run, Item item) {
        safely(() -> listener.itemFinished(run, item));
    }

    /** Tells the observer that the item's trial ended ({@code item} is null when it ended without one). */
    public static void trialEnded(RunObserver.Trial trial, Item item) {
        safely(() -> trial.ended(item));
    }

    void log(Run run, String message) {
        safely(() -> listener.log(run, message));
    }

    /** Announces the run's end, stored or not, to both. */
    void runFinished(Run run) {
        safely(() -> observation.runEnded(run));
        safely(() -> listener.runFinished(run));
    }

    /**
     * Ends the observation of a run whose end could not be recorded at all: its caller learns that from
     * {@link RunHandle#await()}, which fails, so the listener hears of no end.
     */
    public void runAbandoned(Run run) {
        safely(() -> observation.runEnded(run));
    }

    private static void safely(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException ignored) {
            // RunListener's and RunObserver's contract: their failure never affects the run.
        }
    }

    /** {@return what an observer gave, or {@code otherwise} when it failed or gave nothing} */
    private static <T> T observed(Supplier<T> call, T otherwise) {
        try {
            T given = call.get();
            return given != null ? given : otherwise;
        } catch (RuntimeException ignored) {
            return otherwise;
        }
    }
}
