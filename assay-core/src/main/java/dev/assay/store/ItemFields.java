package dev.assay.store;

/**
 * Which of an item's stored fields a read of items fills in; the others read as empty (JSON null, empty text, no tool
 * calls). A transcript is most of an item's stored text, its checkers' detail most of the rest: what does not show them
 * reads items several times faster without.
 */
public enum ItemFields {
    /** Every field. */
    WHOLE,
    /** Every field but the transcript: what the reports show of each item. */
    BRIEF,
    /**
     * What a run's figures are counted from (counts, scores and their spread, tool coverage, pass@k): the item's case,
     * sequence number, dimension, status, scores, weight, tool calls and error; no prompt, final answer, checker
     * detail, transcript, times or truncation flag.
     */
    FIGURES
}
