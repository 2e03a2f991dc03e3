package dev.assay.cases;

import dev.assay.Problem;
import java.util.LinkedHashMap;
import java.util.Objects;

/**
 * One thing wrong with a case file or a case, found while loading a suite. Loading reports every problem at once, so a
 * user can fix a whole file in one pass.
 *
 * @param type machine-readable dotted type: {@code case.parse_error}, {@code case.invalid_shape},
 *     {@code case.missing_field}, {@code case.invalid_field}, {@code case.duplicate_id},
 *     {@code check.invalid_expected}, {@code plugin.unknown}, {@code suite.not_found}, {@code suite.unreadable},
 *     {@code suite.invalid_file}, {@code suite.empty} (see docs/case-format.md)
 * @param source the file and line: the JSONL line, or the line a JSON/YAML case object starts on (for a parse error,
 *     the line the parser stopped on)
 * @param caseId the case's id when it has one; empty for file-level problems
 * @param field the offending field ({@code checks[1].expected}, {@code checker.answer}); empty when the problem is not
 *     about one field
 * @param message one sentence for people
 * @param expected what would have been accepted; empty when nothing more can be said
 */
public record CaseProblem(String type, SourceRef source, String caseId, String field, String message, String expected) {
    public CaseProblem {
        Objects.requireNonNull(type, "type");
        source = source == null ? SourceRef.UNKNOWN : source;
        caseId = caseId == null ? "" : caseId;
        field = field == null ? "" : field;
        message = message == null ? "" : message;
        expected = expected == null ? "" : expected;
    }

    /** {@return this problem as a {@link Problem} whose details carry file, line, case_id, field and expected} */
    public Problem toProblem() {
        var details = new LinkedHashMap<String, Object>();
        details.put("file", source.file());
        details.put("line", source.line());
        if (!caseId.isEmpty()) {
            details.put("case_id", caseId);
        }
        if (!field.isEmpty()) {
            details.put("field", field);
        }
        if (!expected.isEmpty()) {
            details.put("expected", expected);
        }
        return new Problem(type, message, details);
    }

    @Override
    public String toString() {
        var text = new StringBuilder(source.toString()).append(": ").append(type);
        if (!caseId.isEmpty()) {
            text.append(" case '").append(caseId).append('\'');
        }
        if (!field.isEmpty()) {
            text.append(" field '").append(field).append('\'');
        }
        text.append(": ").append(message);
        if (!expected.isEmpty()) {
            text.append(" (expected ").append(expected).append(')');
        }
        return text.toString();
    }
}
