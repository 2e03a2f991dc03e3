package dev.assay.result;

import java.util.Collection;

/**
 * How many items ended how.
 *
 * @param total items selected for the run
 * @param passed items whose score is 1
 * @param failed items judged and not passed (score below the pass mark, partial excluded)
 * @param partial items with partial credit
 * @param skipped items not run (missing prerequisites, unavailable tools), left out of scores
 * @param error items the target or a checker could not complete; they score 0
 * @param cancelled items not finished because the run was cancelled
 */
public record Counts(int total, int passed, int failed, int partial, int skipped, int error, int cancelled) {
    public static final Counts ZERO = new Counts(0, 0, 0, 0, 0, 0, 0);

    public static Counts of(int total, Collection<ItemStatus> statuses) {
        int passed = 0;
        int failed = 0;
        int partial = 0;
        int skipped = 0;
        int error = 0;
        int cancelled = 0;
        for (ItemStatus status : statuses) {
            switch (status) {
                case PASSED -> passed++;
                case FAILED -> failed++;
                case PARTIAL -> partial++;
                case SKIPPED -> skipped++;
                case ERROR -> error++;
                case CANCELLED -> cancelled++;
            }
        }
        return new Counts(total, passed, failed, partial, skipped, error, cancelled);
    }

    /** {@return these counts and one more item in this status} */
    public Counts plus(ItemStatus status) {
        return new Counts(
                total,
                passed + (status == ItemStatus.PASSED ? 1 : 0),
                failed + (status == ItemStatus.FAILED ? 1 : 0),
                partial + (status == ItemStatus.PARTIAL ? 1 : 0),
                skipped + (status == ItemStatus.SKIPPED ? 1 : 0),
                error + (status == ItemStatus.ERROR ? 1 : 0),
                cancelled + (status == ItemStatus.CANCELLED ? 1 : 0));
    }

    /** {@return these counts out of another total} */
    public Counts withTotal(int newTotal) {
        return new Counts(newTotal, passed, failed, partial, skipped, error, cancelled);
    }

    /** {@return items that have an outcome} */
    public int completed() {
        return passed + failed + partial + skipped + error + cancelled;
    }

    /**
     * {@return whether items were judged and every one of them ended in error}: such a run measured nothing, whatever
     * its scores say. Skipped and cancelled items are not judged.
     */
    public boolean everyJudgedItemIsAnError() {
        return error > 0 && passed + failed + partial == 0;
    }
}
