package dev.assay.run;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.store.Store;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.TestSpecs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database outage in the middle of a run, on each supported database (a subclass says how to cut and restore it): a
 * short one loses nothing, a long one ends the run {@code interrupted} with counts equal to the stored items.
 */
@Tag("fault")
abstract class StoreOutageContract {
    protected static final int CASES = 12;
    private static final int CONCURRENCY = 3;

    @TempDir
    Path temp;

    protected Store store;
    private ScriptedOpenAiServer model;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    /** {@return a store whose database {@link #cut()} can make unavailable} */
    protected abstract Store openStore(Path directory) throws Exception;

    /** Makes the database unavailable to the store. Called from an engine thread. */
    protected abstract void cut() throws Exception;

    /** Makes it available again. */
    protected abstract void restore() throws Exception;

    /**
     * {@return an outage long enough that one write attempt fails rather than waits it out} (the pool's connection
     * timeout, SQLite's busy timeout)
     */
    protected abstract Duration outageThatFailsAWrite();

    @BeforeEach
    void start() throws Exception {
        store = openStore(temp);
        model = ScriptedOpenAiServer.start(request -> new ScriptedOpenAiServer.Reply.Delayed(30, text("ok")));
    }

    @AfterEach
    void stop() throws Exception {
        timer.shutdownNow();
        restore();
        model.close();
        store.close();
    }

    protected Engine engine(Duration outageLimit) {
        return new Engine(store, outageLimit);
    }

    protected RunPlan plan() {
        var chat = new OpenAiChatModel(
                new OpenAiSettings("scripted", model.baseUrl(), "", false, Duration.ofSeconds(10), RetryPolicy.none()),
                line -> {});
        var subject = new AgentSubject(chat, List.of(), AgentSettings.defaults(), 8);
        List<Case> cases = IntStream.range(0, CASES)
                .mapToObj(
                        i -> Case.of("case" + i, "common", "question " + i, Check.of("contains", Json.parse("\"ok\""))))
                .toList();
        var suite = new Suite("outage", "v1", cases, Map.of(), List.of());
        return new RunPlan(
                suite,
                subject,
                TestSpecs.config(temp.resolve("work"), settings -> settings.concurrency(CONCURRENCY)),
                CheckerRegistry.builtins());
    }

    /** Cuts the database once the third item is stored, and records what the engine says meanwhile. */
    private class Outage implements RunListener {
        final List<String> logs = new CopyOnWriteArrayList<>();
        final AtomicInteger requestsAtCut = new AtomicInteger(-1);
        private final AtomicBoolean cutDone = new AtomicBoolean();

        @Override
        public void itemFinished(Run run, Item item) {
            if (run.counts().completed() >= 3 && cutDone.compareAndSet(false, true)) {
                try {
                    cut();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                requestsAtCut.set(model.requests().size());
                onCut();
            }
        }

        @Override
        public void log(Run run, String message) {
            logs.add(message);
            onLog(message);
        }

        void onCut() {}

        @SuppressWarnings("UnusedVariable") // a hook: the tests that override it read the message
        void onLog(String message) {}
    }

    @Test
    void an_outage_shorter_than_the_limit_loses_no_item_and_starts_no_case_meanwhile() throws Exception {
        AtomicInteger requestsAtRestore = new AtomicInteger();
        var outage = new Outage() {
            @Override
            void onCut() {
                var unused = timer.schedule(
                        () -> {
                            requestsAtRestore.set(model.requests().size());
                            restore();
                            return null;
                        },
                        outageThatFailsAWrite().toMillis(),
                        TimeUnit.MILLISECONDS);
            }
        };

        Run run = engine(Duration.ofSeconds(60)).run(plan(), outage);

        assertThat(run.status()).as("%s", outage.logs).isEqualTo(RunStatus.FINISHED);
        assertThat(run.counts().completed()).isEqualTo(CASES);
        assertThat(run.counts().passed()).isEqualTo(CASES);
        List<Item> items = store.listItems(run.runId(), 0, 100);
        assertThat(items).hasSize(CASES);
        assertThat(new HashSet<>(items.stream().map(Item::caseId).toList())).hasSize(CASES);
        assertThat(store.findRun(run.runId()).orElseThrow().counts()).isEqualTo(run.counts());
        assertThat(outage.logs)
                .anyMatch(line -> line.startsWith("the database is unavailable"))
                .anyMatch(line -> line.startsWith("the database is back"));
        // Back-pressure: while the database was away only the cases already running went on (one call each), and at
        // most one more per slot, started when a case gave its slot back before its item's write found the database
        // away.
        assertThat(requestsAtRestore.get() - outage.requestsAtCut.get()).isLessThanOrEqualTo(2 * CONCURRENCY);
        // One clear line, no SQL and no stored text in what the engine said.
        assertThat(String.join("\n", outage.logs)).doesNotContain("INSERT", "evaluation_items", "question ");
    }

    private static final Duration LIMIT = Duration.ofMillis(500);

    @Test
    void an_outage_longer_than_the_limit_interrupts_the_run_with_counts_equal_to_the_stored_items() throws Exception {
        var outage = new Outage() {
            @Override
            void onLog(String message) {
                // The database comes back only once the writes have given up, for the run's final record, so that
                // the record is readable: the outage's first line holds the writers until the limit has passed.
                if (message.startsWith("the database is unavailable")) {
                    try {
                        Thread.sleep(LIMIT.toMillis() + 200);
                        restore();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        };

        Run run = engine(LIMIT).run(plan(), outage);

        assertThat(run.status()).as("%s", outage.logs).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(run.error().type()).isEqualTo("store.outage");
        Run stored = store.findRun(run.runId()).orElseThrow();
        assertThat(stored.status()).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(stored.counts()).isEqualTo(run.counts());
        int storedItems = store.countItems(run.runId());
        assertThat(storedItems)
                .isEqualTo(run.counts().completed())
                .isGreaterThanOrEqualTo(3)
                .isLessThan(CASES);
        assertThat(run.counts().total()).isEqualTo(CASES);
    }
}
