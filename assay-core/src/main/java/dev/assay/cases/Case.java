package dev.assay.cases;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.internal.Placeholders;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One evaluation case. Immutable.
 *
 * @param id unique within a suite; never blank
 * @param dimension {@code tool}, {@code logic}, {@code common}, {@code complex}, {@code code}, or a user-defined one
 * @param language {@code zh-CN}, {@code en-US}...; empty when the case does not say
 * @param prompt what the system under test is asked; may carry {@code {run_id}} / {@code {user_id}} placeholders
 * @param weight the case's weight inside its dimension; default 1, never negative
 * @param timeout the per-case time limit ({@code timeout_s}); null means the run's default
 * @param checks at least one check; the case score is their weighted mean
 * @param prerequisites tool names the target must offer, else the case is skipped
 * @param tags free labels (builtin, mcp, skill, knowledge, user, shared, ...)
 * @param files files to seed into the case's workspace before it runs: relative path to content
 * @param attributes the case's other fields as written (code questions keep entry_point, test_cases... here)
 * @param source where the case was read from
 */
public record Case(
        String id,
        String dimension,
        String language,
        String prompt,
        double weight,
        Duration timeout,
        List<Check> checks,
        List<String> prerequisites,
        List<String> tags,
        Map<String, String> files,
        ObjectNode attributes,
        SourceRef source) {

    /**
     * The attribute that binds a case to one of a run's several systems under test by label (a promptfoo config's
     * provider); see {@link dev.assay.subject.Subject#labelled}.
     */
    public static final String SUBJECT_LABEL = "subject_label";

    public Case {
        Objects.requireNonNull(id, "id");
        dimension = dimension == null ? "" : dimension;
        language = language == null ? "" : language;
        prompt = prompt == null ? "" : prompt;
        checks = List.copyOf(checks);
        prerequisites = List.copyOf(prerequisites);
        tags = List.copyOf(tags);
        files = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(files));
        attributes = attributes == null ? Json.object() : attributes.deepCopy();
        source = source == null ? SourceRef.UNKNOWN : source;
        if (weight < 0 || Double.isNaN(weight)) {
            throw new IllegalArgumentException("case weight must be >= 0, got " + weight);
        }
    }

    /** A minimal case with one check, for programmatic use and tests. */
    public static Case of(String id, String dimension, String prompt, Check check) {
        return new Case(
                id, dimension, "", prompt, 1.0, null, List.of(check), List.of(), List.of(), Map.of(), null, null);
    }

    /** {@return the label of the system under test this case is bound to; empty when it names none} */
    public String subjectLabel() {
        return attributes.path(SUBJECT_LABEL).asText("");
    }

    /**
     * {@return this case bound to one of a run's several systems under test ({@link #SUBJECT_LABEL}): its id
     * {@code ID@LABEL} and its dimension {@code [LABEL] DIMENSION} ({@link #labelledDimension}), so that each system's
     * items, scores and dimensions stand apart, as a promptfoo config's providers' do}
     */
    public Case boundTo(String label) {
        ObjectNode bound = attributes.deepCopy();
        bound.put(SUBJECT_LABEL, label);
        return new Case(
                id + "@" + label,
                labelledDimension(label, dimension),
                language,
                prompt,
                weight,
                timeout,
                checks,
                prerequisites,
                tags,
                files,
                bound,
                source);
    }

    /** {@return the dimension of a case bound to the system under test {@code label}: {@code [LABEL] DIMENSION}} */
    public static String labelledDimension(String label, String dimension) {
        return "[" + label + "] " + dimension;
    }

    /** {@return a copy whose prompt, expectations and file paths have every placeholder replaced} */
    public Case withPlaceholders(Map<String, String> values) {
        UnaryOperator<String> fill = text -> Placeholders.fill(text, values);
        var filledFiles = new LinkedHashMap<String, String>();
        files.forEach((path, content) -> filledFiles.put(fill.apply(path), content));
        var filledChecks = checks.stream()
                .map(check -> check.withExpected(Placeholders.fill(check.expected(), values)))
                .toList();
        return new Case(
                id,
                dimension,
                language,
                fill.apply(prompt),
                weight,
                timeout,
                filledChecks,
                prerequisites,
                tags,
                filledFiles,
                attributes,
                source);
    }

    /** {@return the same case under another id (one sample of several: {@code <id>#<k>})} */
    public Case withId(String newId) {
        return new Case(
                newId,
                dimension,
                language,
                prompt,
                weight,
                timeout,
                checks,
                prerequisites,
                tags,
                files,
                attributes,
                source);
    }

    public Case withChecks(List<Check> newChecks) {
        return new Case(
                id,
                dimension,
                language,
                prompt,
                weight,
                timeout,
                newChecks,
                prerequisites,
                tags,
                files,
                attributes,
                source);
    }
}
