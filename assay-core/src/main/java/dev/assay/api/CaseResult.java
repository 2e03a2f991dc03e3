package dev.assay.api;

import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import java.util.List;
import java.util.Objects;

/**
 * How one case (or one sample of a case) of an evaluation ended.
 *
 * @param id the case's id; {@code <case id>#<k>} for the k-th sample when the run draws several
 * @param dimension the case's dimension; empty when the case names none
 * @param status passed, failed, partial, skipped, error or cancelled
 * @param score in [0, 1]; 0 when skipped, error or cancelled
 * @param reasons why it did not pass, one line each ({@link Item#reasons()}): the error or skip reason, else every
 *     check that did not pass as "checker error_type: message"; empty when it passed
 * @param finalAnswer the answer the checks judged; empty when there was none
 */
public record CaseResult(
        String id, String dimension, ItemStatus status, double score, List<String> reasons, String finalAnswer) {
    public CaseResult {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(status, "status");
        dimension = dimension == null ? "" : dimension;
        reasons = List.copyOf(reasons);
        finalAnswer = finalAnswer == null ? "" : finalAnswer;
    }

    static CaseResult of(Item item) {
        return new CaseResult(
                item.caseId(), item.dimension(), item.status(), item.score(), item.reasons(), item.finalAnswer());
    }

    /** {@return whether the case passed} */
    public boolean passed() {
        return status == ItemStatus.PASSED;
    }
}
