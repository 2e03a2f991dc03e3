package dev.assay.cli;

import dev.assay.store.Store;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A store being opened on a thread of its own, so that a command can do other work (read and hash a suite) meanwhile.
 * Opening a store connects, migrates the schema and ends the runs whose process died ({@link DatabaseOption#open}).
 */
final class StoreOpening {
    private final CompletableFuture<Store> store;

    private StoreOpening(CompletableFuture<Store> store) {
        this.store = store;
    }

    /** {@return the store's opening, already under way} */
    static StoreOpening start(DatabaseOption database) {
        var store = new CompletableFuture<Store>();
        Thread.ofVirtual().name("assay-store-open").start(() -> {
            try {
                store.complete(database.open());
            } catch (RuntimeException | Error e) {
                store.completeExceptionally(e);
            }
        });
        return new StoreOpening(store);
    }

    /**
     * {@return the open store, once it is} A failure to open is thrown as it was thrown on the opening thread.
     *
     * @throws InterruptedException when the caller was interrupted while the store was opening; it is then closed once
     *     open
     */
    Store await() throws InterruptedException {
        try {
            return store.get();
        } catch (InterruptedException e) {
            // Nobody takes the store now: it is closed as soon as it is open.
            var unused = store.thenAccept(Store::close);
            throw e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw (Error) e.getCause();
        }
    }

    /**
     * Waits for the opening to end and closes the store, after the caller failed: a migration is not cut short by the
     * process ending. A failure to open is added to the caller's as suppressed, which is what the user is told.
     */
    void closeAfter(Throwable failure) {
        try {
            store.get().close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.addSuppressed(e);
        } catch (ExecutionException | RuntimeException e) {
            failure.addSuppressed(e instanceof ExecutionException ? e.getCause() : e);
        }
    }
}
