package dev.assay.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.store.KeptResponse;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupCommitTest {
    private static final int WRITERS = 32;
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    @TempDir
    Path temp;

    private Store real;
    private final AtomicInteger commits = new AtomicInteger();
    private final CountDownLatch firstCommitMayEnd = new CountDownLatch(1);
    private final AtomicBoolean failGroups = new AtomicBoolean();

    /** The real store, its {@code saveAll} counted, the first one held until the test lets it go. */
    private Store store;

    @BeforeEach
    void open() {
        real = Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"));
        real.createRun(new Run(
                "r1",
                RunKind.CAPABILITY,
                "",
                "m",
                "",
                RunStatus.RUNNING,
                "s",
                "",
                null,
                List.of(),
                Map.of(),
                null,
                null,
                T0,
                null,
                0,
                null));
        store = (Store) Proxy.newProxyInstance(
                Store.class.getClassLoader(), new Class<?>[] {Store.class}, (proxy, method, args) -> {
                    if (method.getName().equals("saveAll")) {
                        if (commits.incrementAndGet() == 1) {
                            firstCommitMayEnd.await();
                        } else if (failGroups.get() && ((List<?>) args[1]).size() > 1) {
                            throw new IllegalStateException("a bug in the store");
                        }
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @AfterEach
    void close() {
        real.close();
    }

    @Test
    void the_writes_that_arrive_during_a_commit_share_the_next_and_every_writer_returns_once_stored() throws Exception {
        List<Future<Void>> writers = startWriters();

        for (Future<Void> writer : writers) {
            writer.get(30, TimeUnit.SECONDS);
        }

        assertThat(real.countItems("r1")).isEqualTo(WRITERS);
        // The first commit held the lock while the other 31 queued: they went in one or two more.
        assertThat(commits.get()).isBetween(2, 3);
    }

    @Test
    void a_group_that_fails_with_a_bug_fails_each_of_its_writers_instead_of_leaving_them_waiting() throws Exception {
        failGroups.set(true);
        List<Future<Void>> writers = startWriters();

        int failed = 0;
        for (Future<Void> writer : writers) {
            try {
                writer.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                assertThat(e.getCause()).hasStackTraceContaining("a bug in the store");
                failed++;
            }
        }

        assertThat(failed).isPositive();
        assertThat(real.countItems("r1") + failed).isEqualTo(WRITERS);
    }

    @Test
    void an_answer_kept_while_another_writer_commits_does_not_wait_and_goes_in_with_that_writers_commit()
            throws Exception {
        var group = new GroupCommit(store, new StoreWrites(Duration.ofSeconds(5), line -> {}));
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> committing = threads.submit(() -> {
                group.item(item(0));
                return null;
            });
            while (commits.get() == 0) {
                Thread.sleep(10);
            }

            // The first commit is held: an item would wait for it, an answer does not.
            group.response(new KeptResponse("r1", "key-1", "{\"text\": \"42\"}"));
            assertThat(committing).isNotDone();

            firstCommitMayEnd.countDown();
            committing.get(30, TimeUnit.SECONDS);
        }
        assertThat(real.findResponse("key-1", "r1", null)).contains("{\"text\": \"42\"}");
        assertThat(real.countItems("r1")).isOne();
    }

    private List<Future<Void>> startWriters() throws InterruptedException {
        var group = new GroupCommit(store, new StoreWrites(Duration.ofSeconds(5), line -> {}));
        var threads = Executors.newVirtualThreadPerTaskExecutor();
        var writers = new ArrayList<Future<Void>>();
        for (int i = 0; i < WRITERS; i++) {
            Item item = item(i);
            writers.add(threads.submit(() -> {
                group.item(item);
                return null;
            }));
            // The others start once the first commit is under way: on a busy machine the first writer could
            // otherwise find them all queued already and take them into its own commit.
            while (i == 0 && commits.get() == 0) {
                Thread.sleep(10);
            }
        }
        // Let the other writers queue behind the first commit before it ends.
        Thread.sleep(300);
        firstCommitMayEnd.countDown();
        threads.shutdown();
        return writers;
    }

    private static Item item(int seq) {
        return new Item(
                "r1",
                "c" + seq,
                seq,
                "logic",
                ItemStatus.PASSED,
                1,
                1,
                1,
                "p",
                "a",
                List.of(),
                null,
                null,
                null,
                T0,
                T0,
                0);
    }
}
