package dev.assay.store;

/**
 * An item's transcript as the JSON text stored, for writing it out as it is rather than reading it into a tree.
 *
 * @param seq the item's position in the run's selection
 * @param caseId the item's case id
 * @param json the transcript's JSON text; null when none was stored
 */
public record StoredTranscript(int seq, String caseId, String json) {}
