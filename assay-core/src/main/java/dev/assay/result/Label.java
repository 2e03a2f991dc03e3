package dev.assay.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import java.time.Instant;
import java.util.Objects;

/**
 * A person's label of one check of one item ({@code assay review}, the page's review view): what they say the verdict
 * should be, kept beside the machine's and never written over it. One per person and check; a person who labels the
 * same check again changes their label.
 *
 * @param runId the run
 * @param caseId the item (its case id, {@code case#k} for a sample)
 * @param check the check's index in the item's list of checks, from 0
 * @param checker the check's checker ({@code judge})
 * @param pass true for pass, false for fail; null when only a score is given
 * @param score a score on the check's scale; null when only pass or fail is given
 * @param note why, in the person's words; empty for none
 * @param by who labelled it
 * @param at when
 */
public record Label(
        String runId,
        String caseId,
        int check,
        String checker,
        Boolean pass,
        Double score,
        String note,
        String by,
        Instant at) {
    public Label {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(caseId, "caseId");
        Objects.requireNonNull(checker, "checker");
        Objects.requireNonNull(at, "at");
        if (pass == null && score == null) {
            throw invalid("label", "pass, fail or a score");
        }
        if (score != null && !Double.isFinite(score)) {
            throw invalid("score", "a finite number");
        }
        if (check < 0) {
            throw invalid("check", "a check's index, from 0");
        }
        if (by == null || by.isBlank()) {
            throw invalid("by", "who labelled it");
        }
        note = note == null ? "" : note;
    }

    /** {@return this label as the API and {@code assay review --format json} show it} */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("run_id", runId);
        node.put("case_id", caseId);
        node.put("check", check);
        node.put("checker", checker);
        node.put("label", pass == null ? null : pass ? "pass" : "fail");
        node.put("score", score);
        node.put("note", note);
        node.put("by", by);
        node.put("at", at.toString());
        return node;
    }

    /**
     * {@return a label of check {@code check} of {@code item}, its checker taken from the item}
     *
     * @throws AssayException {@code label.invalid} for a check the item does not have, or a label without pass, fail or
     *     score
     */
    public static Label of(Item item, int check, Boolean pass, Double score, String note, String by, Instant at) {
        JsonNode checks = item.checkerDetail().path("checks");
        if (check < 0 || check >= checks.size()) {
            throw invalid("check", "the index of one of the item's " + checks.size() + " check(s)");
        }
        return new Label(
                item.runId(),
                item.caseId(),
                check,
                checks.get(check).path("checker").asText(),
                pass,
                score,
                note,
                by,
                at);
    }

    /**
     * {@return a label of {@code item} read from an API body: {@code check}, {@code label} ("pass" or "fail") and/or
     * {@code score}, {@code note}}
     *
     * @throws AssayException {@code label.invalid} naming the field
     */
    public static Label fromJson(JsonNode body, Item item, String by, Instant at) {
        JsonNode label = body.path("label");
        Boolean pass = null;
        if (!label.isMissingNode() && !label.isNull()) {
            if (!label.isTextual()
                    || !(label.asText().equals("pass") || label.asText().equals("fail"))) {
                throw invalid("label", "\"pass\" or \"fail\"");
            }
            pass = label.asText().equals("pass");
        }
        JsonNode score = body.path("score");
        if (!score.isMissingNode() && !score.isNull() && !score.isNumber()) {
            throw invalid("score", "a number");
        }
        JsonNode note = body.path("note");
        if (!note.isMissingNode() && !note.isNull() && !note.isTextual()) {
            throw invalid("note", "a string");
        }
        JsonNode check = body.path("check");
        if (!check.isMissingNode() && !check.canConvertToInt()) {
            throw invalid("check", "a check's index, from 0");
        }
        return of(item, check.asInt(0), pass, score.isNumber() ? score.asDouble() : null, note.asText(""), by, at);
    }

    private static AssayException invalid(String field, String what) {
        return new AssayException(
                Problem.of("label.invalid", "'" + field + "' must be " + what).withDetail("field", field));
    }
}
