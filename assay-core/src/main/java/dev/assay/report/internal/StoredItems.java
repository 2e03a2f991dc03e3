package dev.assay.report.internal;

import dev.assay.result.Item;
import dev.assay.result.TrialId;
import dev.assay.store.ItemFields;
import dev.assay.store.Store;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.RandomAccess;

/**
 * A run's stored items as a list read from the store a page at a time, so that a report of any size is written in the
 * memory of one page. Its size is the number of items when it was made; reading in order reads each page once, each
 * following the last item of the one before (as cheap at the end of a large run as at its start). A view: it is not
 * modifiable, and items stored after it was made are not in it. Thread-safe.
 *
 * <p>Items read without transcripts are small and read again by every report: the pages of a run of up to
 * {@value #KEPT_ITEMS} items are kept once read, so the second and later passes cost nothing, in a bounded memory. A
 * larger run, and items with transcripts (read once, by the report that writes them), keep only the current page: soft
 * references were tried and, in a small heap, made the collector run full collections back to back. A larger run's
 * figures are therefore counted from items read with only the fields they need ({@link #forFigures}).
 */
public final class StoredItems extends AbstractList<Item> implements RandomAccess {
    private static final int PAGE = 500;
    private static final int KEPT_ITEMS = 20_000;

    private final Store store;
    private final String runId;
    private final int samples;
    private final int size;
    private final ItemFields fields;
    private final int keptItems;
    private final List<List<Item>> kept;
    private StoredItems brief;
    private int currentNumber = -1;
    private List<Item> current = List.of();

    /** @param samples the samples the run draws of each case, which tell each item's trial ({@link TrialId#stored}) */
    public StoredItems(Store store, String runId, int samples) {
        this(store, runId, samples, KEPT_ITEMS);
    }

    /** @param keptItems up to how many items a run's brief items are kept once read */
    public StoredItems(Store store, String runId, int samples, int keptItems) {
        this(store, runId, samples, store.countItems(runId), ItemFields.WHOLE, keptItems);
    }

    private StoredItems(Store store, String runId, int samples, int size, ItemFields fields, int keptItems) {
        this.store = store;
        this.runId = runId;
        this.samples = samples;
        this.size = size;
        this.fields = fields;
        this.keptItems = keptItems;
        this.kept = new ArrayList<>();
    }

    /** {@return the same items read without their transcripts (each JSON null), several times faster to read} */
    public synchronized StoredItems withoutTranscripts() {
        if (fields == ItemFields.BRIEF) {
            return this;
        }
        if (brief == null) {
            brief = new StoredItems(store, runId, samples, size, ItemFields.BRIEF, keptItems);
        }
        return brief;
    }

    /**
     * {@return the same items, for counting the run's figures}: the brief items where they are kept for the reports
     * that follow, else items read with only the fields the figures need ({@link ItemFields#FIGURES}): at 100 000
     * items, half the CPU of a pass over brief items
     */
    public List<Item> forFigures() {
        return size <= keptItems
                ? withoutTranscripts()
                : new StoredItems(store, runId, samples, size, ItemFields.FIGURES, keptItems);
    }

    /**
     * {@return the items in order, each with its transcript as the JSON text stored ({@link CopiedJson})}: the brief
     * items, kept for the other reports, with the transcripts of each page read beside them and never parsed. For
     * writing the items out; a transcript here cannot be read as a tree.
     */
    Iterable<Item> withStoredTranscripts() {
        StoredItems brief = withoutTranscripts();
        return () -> new Iterator<>() {
            private int index;
            private Item previous;
            private final Map<String, String> page = new HashMap<>();

            @Override
            public boolean hasNext() {
                return index < brief.size();
            }

            @Override
            public Item next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                if (index % PAGE == 0) {
                    // The page's transcripts by key: an item stored meanwhile (a running run's) may fall among them.
                    page.clear();
                    Item last = brief.get(Math.min(index + PAGE, brief.size()) - 1);
                    store.listTranscripts(runId, previous, last)
                            .forEach(transcript ->
                                    page.put(key(transcript.seq(), transcript.caseId()), transcript.json()));
                }
                Item item = brief.get(index++);
                String key = key(item.seq(), item.caseId());
                if (!page.containsKey(key)) {
                    throw new IllegalStateException(
                            "item " + item.caseId() + " of run " + runId + " was deleted while read");
                }
                previous = item;
                return item.withTranscript(CopiedJson.of(page.get(key)));
            }
        };
    }

    private static String key(int seq, String caseId) {
        return seq + "\u0000" + caseId;
    }

    @Override
    public synchronized Item get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("item " + index + " of " + size);
        }
        int number = index / PAGE;
        List<Item> page = page(number);
        if (index - number * PAGE >= page.size()) {
            throw new IllegalStateException("item " + index + " of run " + runId + " was deleted while read");
        }
        return page.get(index - number * PAGE);
    }

    private List<Item> page(int number) {
        if (number == currentNumber) {
            return current;
        }
        List<Item> page = keptPage(number);
        if (page == null) {
            // Reading on in order, the next page follows the last item read; elsewhere it is found by its offset.
            List<Item> before = number == currentNumber + 1 ? current : keptPage(number - 1);
            page = before != null && before.size() == PAGE
                    ? store.listItemsAfter(runId, before.getLast(), PAGE, fields)
                    : store.listItems(runId, number * PAGE, PAGE, fields);
            if (page.isEmpty()) {
                throw new IllegalStateException("page " + number + " of run " + runId + " was deleted while read");
            }
            if (samples > 1) {
                page = page.stream()
                        .map(item -> item.withTrial(TrialId.stored(item.caseId(), item.seq(), samples)))
                        .toList();
            }
            if (fields == ItemFields.BRIEF && size <= keptItems) {
                while (kept.size() <= number) {
                    kept.add(null);
                }
                kept.set(number, page);
            }
        }
        currentNumber = number;
        current = page;
        return page;
    }

    private List<Item> keptPage(int number) {
        if (number < 0 || number >= kept.size()) {
            return null;
        }
        return kept.get(number);
    }

    @Override
    public int size() {
        return size;
    }
}
