package dev.assay.result;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.assay.Problem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The result of one case in one run. Immutable.
 *
 * @param runId the run it belongs to
 * @param caseId the case's id
 * @param seq the case's position in the run's selection (0-based): items list in this order
 * @param dimension the case's dimension
 * @param status passed, failed, partial, skipped, error or cancelled
 * @param score in [0, 1]: the weighted mean of the case's check scores; 0 when skipped, error or cancelled
 * @param maxScore always 1: scores are fractions (kept as a column because the plan names it)
 * @param weight the case's weight inside its dimension
 * @param prompt the prompt as sent (placeholders filled)
 * @param finalAnswer the cleaned final answer checkers judged, capped for storage like every text of the item
 * @param toolCalls the tool calls, in order
 * @param checkerDetail per-check verdicts and evidence: {@code {"checks": [{checker, weight, status, score, ...}]}}
 * @param error why the item is error/skipped; null otherwise
 * @param transcript the full transcript as JSON (an array of events)
 * @param startedAt when the case started
 * @param finishedAt when it ended
 * @param elapsedS seconds spent
 * @param truncated whether a text of the item (the final answer, a transcript event, a tool argument, checker evidence)
 *     was longer than the storage cap of 1 Mi characters and was stored cut, with a marker at the cut; checkers judged
 *     the whole text
 * @param trial the case and sample the item holds, of which {@code caseId} is the string form: built where the item is
 *     made, or read back from its stored columns with the run's samples ({@link TrialId#stored}, as a run's report
 *     reads its items); not stored itself. Null gives sample 0 of the case {@code caseId}: what an item read from the
 *     store without its run's samples holds
 */
public record Item(
        String runId,
        String caseId,
        int seq,
        String dimension,
        ItemStatus status,
        double score,
        double maxScore,
        double weight,
        String prompt,
        String finalAnswer,
        List<ToolCallView> toolCalls,
        JsonNode checkerDetail,
        Problem error,
        JsonNode transcript,
        Instant startedAt,
        Instant finishedAt,
        double elapsedS,
        boolean truncated,
        @JsonIgnore TrialId trial) {

    public Item {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(caseId, "caseId");
        trial = trial == null ? new TrialId(caseId, 0) : trial;
        if (!trial.toString().equals(caseId)) {
            throw new IllegalArgumentException("item " + caseId + " holds trial " + trial);
        }
        Objects.requireNonNull(status, "status");
        dimension = dimension == null ? "" : dimension;
        prompt = prompt == null ? "" : prompt;
        finalAnswer = finalAnswer == null ? "" : finalAnswer;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        checkerDetail = checkerDetail == null ? NullNode.getInstance() : checkerDetail;
        transcript = transcript == null ? NullNode.getInstance() : transcript;
    }

    /** An item stored whole. */
    public Item(
            String runId,
            String caseId,
            int seq,
            String dimension,
            ItemStatus status,
            double score,
            double maxScore,
            double weight,
            String prompt,
            String finalAnswer,
            List<ToolCallView> toolCalls,
            JsonNode checkerDetail,
            Problem error,
            JsonNode transcript,
            Instant startedAt,
            Instant finishedAt,
            double elapsedS) {
        this(
                runId,
                caseId,
                seq,
                dimension,
                status,
                score,
                maxScore,
                weight,
                prompt,
                finalAnswer,
                toolCalls,
                checkerDetail,
                error,
                transcript,
                startedAt,
                finishedAt,
                elapsedS,
                false,
                null);
    }

    /** An item of its case's one answer, stored whole or cut. */
    public Item(
            String runId,
            String caseId,
            int seq,
            String dimension,
            ItemStatus status,
            double score,
            double maxScore,
            double weight,
            String prompt,
            String finalAnswer,
            List<ToolCallView> toolCalls,
            JsonNode checkerDetail,
            Problem error,
            JsonNode transcript,
            Instant startedAt,
            Instant finishedAt,
            double elapsedS,
            boolean truncated) {
        this(
                runId,
                caseId,
                seq,
                dimension,
                status,
                score,
                maxScore,
                weight,
                prompt,
                finalAnswer,
                toolCalls,
                checkerDetail,
                error,
                transcript,
                startedAt,
                finishedAt,
                elapsedS,
                truncated,
                null);
    }

    /**
     * {@return why the item did not pass, one line each: its error when it has one (skipped, error), else every check
     * that did not pass as "checker error_type: message"; empty when it passed}
     */
    public List<String> reasons() {
        if (error != null) {
            return List.of(error.type() + ": " + error.message());
        }
        var reasons = new ArrayList<String>();
        for (JsonNode check : checkerDetail.path("checks")) {
            if (!check.path("status").asText().equals("passed")) {
                String type = check.path("error_type").asText("");
                String message = check.path("message").asText("");
                reasons.add(check.path("checker").asText()
                        + (type.isEmpty() ? "" : " " + type)
                        + (message.isEmpty() ? "" : ": " + message));
            }
        }
        return List.copyOf(reasons);
    }

    /**
     * {@return what the item's model calls cost in US dollars, every role together, as priced when it ended and kept in
     * its checker detail's {@code cost} (docs/cost.md); null for an item stored without one}
     */
    @JsonProperty("cost_usd")
    public Double costUsd() {
        JsonNode cost = checkerDetail.path("cost").path("cost_usd");
        return cost.isNumber() ? cost.doubleValue() : null;
    }

    /** {@return the same item with another checker detail} */
    public Item withCheckerDetail(JsonNode newCheckerDetail) {
        return new Item(
                runId,
                caseId,
                seq,
                dimension,
                status,
                score,
                maxScore,
                weight,
                prompt,
                finalAnswer,
                toolCalls,
                newCheckerDetail,
                error,
                transcript,
                startedAt,
                finishedAt,
                elapsedS,
                truncated,
                trial);
    }

    /** {@return the same item with another transcript} */
    public Item withTranscript(JsonNode newTranscript) {
        return new Item(
                runId,
                caseId,
                seq,
                dimension,
                status,
                score,
                maxScore,
                weight,
                prompt,
                finalAnswer,
                toolCalls,
                checkerDetail,
                error,
                newTranscript,
                startedAt,
                finishedAt,
                elapsedS,
                truncated,
                trial);
    }

    /** {@return the same item as the trial it holds} (its id is the trial's string form) */
    public Item withTrial(TrialId newTrial) {
        return new Item(
                runId,
                caseId,
                seq,
                dimension,
                status,
                score,
                maxScore,
                weight,
                prompt,
                finalAnswer,
                toolCalls,
                checkerDetail,
                error,
                transcript,
                startedAt,
                finishedAt,
                elapsedS,
                truncated,
                newTrial);
    }
}
