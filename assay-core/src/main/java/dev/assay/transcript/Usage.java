package dev.assay.transcript;

/**
 * Token counts of one model call or a whole transcript.
 *
 * @param inputTokens prompt tokens; 0 when unknown
 * @param outputTokens completion tokens; 0 when unknown
 */
public record Usage(long inputTokens, long outputTokens) {
    public static final Usage NONE = new Usage(0, 0);

    public Usage plus(Usage other) {
        return new Usage(inputTokens + other.inputTokens, outputTokens + other.outputTokens);
    }
}
