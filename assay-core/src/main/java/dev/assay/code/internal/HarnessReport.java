package dev.assay.code.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * What the harness reported for one case, before comparison.
 *
 * @param status {@code ok} (a value was returned), {@code passed} / {@code wrong_answer} (test code judged itself),
 *     {@code timeout} or {@code runtime_error}
 * @param actual the value returned, as JSON; JSON null when none
 * @param message the error, when there was one; empty otherwise
 */
public record HarnessReport(String status, JsonNode actual, String message) {
    public HarnessReport {
        actual = actual == null ? NullNode.getInstance() : actual;
        message = message == null ? "" : message;
    }
}
