package dev.assay.subject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.transcript.Transcript;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Several systems under test in one run, each under a label (a promptfoo config's providers): each case runs against
 * the one its {@code subject_label} names ({@link Subject#labelled}). A case bound to no known label is skipped with
 * {@code subject.unknown_label}, never run against another system. Thread-safe when its subjects are.
 */
public final class LabelledSubjects implements Subject {
    private final Map<String, Subject> byLabel;

    /** @param byLabel the subjects by label, in the order they are shown; at least one */
    public LabelledSubjects(Map<String, Subject> byLabel) {
        if (byLabel.isEmpty()) {
            throw new IllegalArgumentException("at least one subject");
        }
        this.byLabel = Collections.unmodifiableMap(new LinkedHashMap<>(byLabel));
    }

    /** {@return the subjects by label, in order} */
    public Map<String, Subject> byLabel() {
        return byLabel;
    }

    @Override
    public Subject labelled(String label) {
        Subject subject = byLabel.get(label);
        return subject != null ? subject : new Unknown(label);
    }

    @Override
    public String name() {
        return String.join(", ", byLabel.keySet());
    }

    @Override
    public Set<String> toolNames() {
        var names = new LinkedHashSet<String>();
        byLabel.values().forEach(subject -> names.addAll(subject.toolNames()));
        return names;
    }

    @Override
    public Transcript run(SubjectInput input, Session session) {
        throw new AssayException(unknownLabel(""));
    }

    @Override
    public Optional<Problem> unavailable(SubjectInput input) {
        return Optional.of(unknownLabel(""));
    }

    @Override
    public int maxConcurrency() {
        return byLabel.values().stream().mapToInt(Subject::maxConcurrency).min().orElse(Integer.MAX_VALUE);
    }

    @Override
    public JsonNode describe() {
        ObjectNode node = Json.object();
        node.put("type", "labelled");
        ObjectNode subjects = node.putObject("subjects");
        byLabel.forEach((label, subject) -> subjects.set(label, subject.describe()));
        return node;
    }

    @Override
    public void close() {
        RuntimeException failed = null;
        for (Subject subject : byLabel.values()) {
            try {
                subject.close();
            } catch (RuntimeException e) {
                failed = failed == null ? e : failed;
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    private Problem unknownLabel(String label) {
        return Problem.of(
                        "subject.unknown_label",
                        "the case is bound to '" + label + "', which is none of this run's systems under test: "
                                + String.join(", ", byLabel.keySet()))
                .withDetail("label", label);
    }

    /** What a case bound to a label no subject has meets: it is skipped, never run. */
    private final class Unknown implements Subject {
        private final String label;

        Unknown(String label) {
            this.label = label;
        }

        @Override
        public String name() {
            return label;
        }

        @Override
        public Set<String> toolNames() {
            return Set.of();
        }

        @Override
        public Transcript run(SubjectInput input, Session session) {
            throw new AssayException(unknownLabel(label));
        }

        @Override
        public Optional<Problem> unavailable(SubjectInput input) {
            return Optional.of(unknownLabel(label));
        }

        @Override
        public JsonNode describe() {
            return Json.object().put("type", "unknown_label");
        }
    }
}
