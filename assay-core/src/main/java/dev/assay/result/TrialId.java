package dev.assay.result;

import java.util.Objects;

/**
 * Which answer an item holds: a case and, when the run draws several samples of each case, which one. Its string form
 * is the id the item is stored and shown under: the case id alone in a run of one sample per case, {@code caseId#k}
 * otherwise.
 *
 * @param caseId the case's own id
 * @param sample which sample, from 1; 0 for the one answer of a run that draws one per case
 */
public record TrialId(String caseId, int sample) {
    public TrialId {
        Objects.requireNonNull(caseId, "caseId");
        if (sample < 0) {
            throw new IllegalArgumentException("sample must be >= 0, got " + sample);
        }
    }

    /**
     * {@return the trial a stored item holds}, from its stored columns: the item's position tells its sample, which its
     * id ends with; the rest of the id is the case's, whatever it holds ({@code a#b#2} is sample 2 of {@code a#b})
     *
     * @param itemId the id as stored
     * @param seq the item's position in the run's selection: sample {@code seq % samples + 1} of its case
     * @param samples the samples the run draws of each case: with one, the id is the case's
     */
    public static TrialId stored(String itemId, int seq, int samples) {
        if (samples < 2) {
            return new TrialId(itemId, 0);
        }
        int sample = seq % samples + 1;
        String suffix = "#" + sample;
        // An id the engine did not write this way (edited by hand) is taken whole: its own case.
        return itemId.length() > suffix.length() && itemId.endsWith(suffix)
                ? new TrialId(itemId.substring(0, itemId.length() - suffix.length()), sample)
                : new TrialId(itemId, 0);
    }

    /** {@return the id the item is stored and shown under} */
    @Override
    public String toString() {
        return sample == 0 ? caseId : caseId + "#" + sample;
    }
}
