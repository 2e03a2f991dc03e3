package dev.assay.store;

import java.util.Objects;

/**
 * A model answer a run keeps, to be found again when the run is resumed ({@link Store#saveResponse}).
 *
 * @param runId the run's id
 * @param key the hash of what determines the answer
 * @param response the answer as JSON
 */
public record KeptResponse(String runId, String key, String response) {
    public KeptResponse {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(response, "response");
    }
}
