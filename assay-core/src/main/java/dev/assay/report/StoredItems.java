package dev.assay.report;

import dev.assay.result.Item;
import dev.assay.store.Store;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A run's stored items as a list read from the store a page at a time, so that a report of any size is written in the
 * memory of one page. Its size is the number of items when it was made; reading in order reads each page once, each
 * following the last item of the one before (as cheap at the end of a large run as at its start). A view: it is not
 * modifiable, and items stored after it was made are not in it. Thread-safe.
 */
final class StoredItems extends AbstractList<Item> implements RandomAccess {
    private static final int PAGE = 500;

    private final Store store;
    private final String runId;
    private final int size;
    private final boolean transcripts;
    private int pageStart = -1;
    private List<Item> page = List.of();

    StoredItems(Store store, String runId) {
        this(store, runId, store.countItems(runId), true);
    }

    private StoredItems(Store store, String runId, int size, boolean transcripts) {
        this.store = store;
        this.runId = runId;
        this.size = size;
        this.transcripts = transcripts;
    }

    /** {@return the same items read without their transcripts (each JSON null), several times faster to read} */
    StoredItems withoutTranscripts() {
        return transcripts ? new StoredItems(store, runId, size, false) : this;
    }

    @Override
    public synchronized Item get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("item " + index + " of " + size);
        }
        if (pageStart < 0 || index < pageStart || index >= pageStart + page.size()) {
            // Reading on in order, the next page follows the last item read; elsewhere it is found by its offset.
            boolean next = pageStart >= 0 && index == pageStart + page.size() && !page.isEmpty();
            page = next
                    ? store.listItemsAfter(runId, page.getLast(), PAGE, transcripts)
                    : store.listItems(runId, index, PAGE, transcripts);
            pageStart = index;
            if (page.isEmpty()) {
                throw new IllegalStateException("item " + index + " of run " + runId + " was deleted while read");
            }
        }
        return page.get(index - pageStart);
    }

    @Override
    public int size() {
        return size;
    }
}
