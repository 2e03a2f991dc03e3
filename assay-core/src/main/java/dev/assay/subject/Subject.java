package dev.assay.subject;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Problem;
import dev.assay.transcript.Transcript;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A system under test: a model driven by Assay's agent loop, an agent service, or recorded transcripts. Thread-safe:
 * the engine runs several cases at once (up to {@link #maxConcurrency()}).
 */
public interface Subject extends AutoCloseable {
    /** {@return the target as users name it, e.g. {@code openai:gpt-4o-mini}} */
    String name();

    /**
     * {@return the model its own model calls are priced at ({@link dev.assay.cost.PriceTable#find}), e.g.
     * {@code openai:gpt-4o-mini}}: its name, unless its name is a label (a promptfoo provider's)
     */
    default String model() {
        return name();
    }

    /** {@return the canonical names of the tools this target can use, for prerequisite checks} */
    Set<String> toolNames();

    /**
     * {@return the canonical names of the tools this target can use on one case}: by default {@link #toolNames()}; a
     * target that offers a case's declared functions ({@code tools}) adds them
     */
    default Set<String> toolNames(SubjectInput input) {
        return toolNames();
    }

    /**
     * Works on one case's input (never its checks or expected values), recording everything in
     * {@code session.transcript()}, and returns the transcript. Failures of the system under test (timeouts, HTTP
     * errors, malformed output) are recorded as {@code SubjectError} events, not thrown.
     */
    Transcript run(SubjectInput input, Session session) throws InterruptedException;

    /**
     * {@return why this target cannot work on a case here, if it cannot: the case becomes {@code skipped} with this
     * problem as its reason and stays out of the denominator (e.g. {@code replay.missing_case} for a case the recording
     * lacks)}. Checked before the workspace is made; the default is never.
     */
    default Optional<Problem> unavailable(SubjectInput input) {
        return Optional.empty();
    }

    /**
     * {@return tools this target would offer but cannot here, by canonical name, with the reason (execute_command
     * without a sandbox): a case needing one is {@code skipped} with that reason rather than a bare
     * {@code case.missing_tools}}. None by default.
     */
    default Map<String, Problem> withheldTools() {
        return Map.of();
    }

    /** {@return how many cases this target accepts at once; the engine uses the smaller of this and its own limit} */
    default int maxConcurrency() {
        return Integer.MAX_VALUE;
    }

    /**
     * {@return the system under test that a case bound to {@code label} runs against}: this one, unless it holds
     * several (a promptfoo config's providers, {@link LabelledSubjects}). A case names its label in its attributes'
     * {@code subject_label}; a case that names none is given the empty label.
     */
    default Subject labelled(String label) {
        return this;
    }

    /** {@return the target's settings for the run's configuration snapshot; never secrets} */
    JsonNode describe();

    /** Releases what the target holds (HTTP connection pools); called once its run has ended. Nothing by default. */
    @Override
    default void close() {}
}
