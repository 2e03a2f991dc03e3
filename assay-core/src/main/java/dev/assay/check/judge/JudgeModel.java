package dev.assay.check.judge;

import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import java.time.Duration;
import java.util.Objects;

/**
 * A model that grades answers, as configured (assay.yaml {@code judges:}).
 *
 * @param name the name cases use in {@code expected.model}, e.g. {@code default}
 * @param model the chat model; called at temperature 0 with a fixed seed
 * @param baseUrl the API root it talks to, part of the cache key so two servers with the same model id never share
 *     answers; empty when the model has none (the offline mock)
 * @param timeout the limit for one judge call, retries included (default {@link ModelOptions#DEFAULT_REQUEST_TIMEOUT})
 */
public record JudgeModel(String name, ChatModel model, String baseUrl, Duration timeout) {
    public JudgeModel {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(model, "model");
        baseUrl = baseUrl == null ? "" : baseUrl;
        timeout = timeout == null ? ModelOptions.DEFAULT_REQUEST_TIMEOUT : timeout;
    }
}
