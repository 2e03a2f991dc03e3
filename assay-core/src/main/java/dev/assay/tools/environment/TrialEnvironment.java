package dev.assay.tools.environment;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;

/**
 * What a checker may know of a trial's environment: its state at the trial's end, and how to start another fresh one of
 * the same kind (to play the gold actions on). Immutable.
 *
 * @param spec the case's environment
 * @param endState the state read when the trial ended
 * @param environments where a fresh one is started
 * @param timeout the most a fresh one's start and each of its requests may take
 */
public record TrialEnvironment(EnvironmentSpec spec, JsonNode endState, Environments environments, Duration timeout) {
    public TrialEnvironment {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(endState, "endState");
        Objects.requireNonNull(environments, "environments");
        Objects.requireNonNull(timeout, "timeout");
    }

    /** {@return a fresh environment of the same kind, not yet touched; close it when done} */
    public Environment fresh() throws InterruptedException {
        return environments.start(spec, timeout);
    }
}
