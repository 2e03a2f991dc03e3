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
     * {@return the trial an item id names}
     *
     * @param itemId the id as stored
     * @param samples the samples the run draws of each case: with one, the id is the case's whatever it holds
     */
    public static TrialId parse(String itemId, int samples) {
        int hash = itemId.lastIndexOf('#');
        if (samples < 2 || hash <= 0 || hash == itemId.length() - 1) {
            return new TrialId(itemId, 0);
        }
        String suffix = itemId.substring(hash + 1);
        return suffix.chars().allMatch(Character::isDigit) && suffix.length() < 10
                ? new TrialId(itemId.substring(0, hash), Integer.parseInt(suffix))
                : new TrialId(itemId, 0);
    }

    /** {@return the id the item is stored and shown under} */
    @Override
    public String toString() {
        return sample == 0 ? caseId : caseId + "#" + sample;
    }
}
