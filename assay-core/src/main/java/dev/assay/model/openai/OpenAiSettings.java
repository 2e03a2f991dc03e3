package dev.assay.model.openai;

import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * How to reach an OpenAI-compatible API.
 *
 * @param model the model id the API expects ({@code gpt-4o-mini}, {@code qwen2.5:7b}...)
 * @param baseUrl the API root, e.g. {@code https://api.openai.com/v1} or {@code http://localhost:11434/v1}
 * @param apiKey the key, read from an environment variable at the edge; empty for servers without auth. Never stored,
 *     logged or reported: {@link #toString()} hides it
 * @param stream whether to use streaming responses (the result is the same, assembled)
 * @param requestTimeout the limit for one HTTP request (default {@link ModelOptions#DEFAULT_REQUEST_TIMEOUT})
 * @param retry retries of transient failures
 */
public record OpenAiSettings(
        String model, String baseUrl, String apiKey, boolean stream, Duration requestTimeout, RetryPolicy retry) {
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

    public OpenAiSettings {
        Objects.requireNonNull(model, "model");
        baseUrl = baseUrl == null || baseUrl.isBlank() ? DEFAULT_BASE_URL : baseUrl;
        apiKey = apiKey == null ? "" : apiKey;
        requestTimeout = requestTimeout == null ? ModelOptions.DEFAULT_REQUEST_TIMEOUT : requestTimeout;
        retry = retry == null ? RetryPolicy.defaults() : retry;
    }

    @Override
    public String toString() {
        return "OpenAiSettings[model=" + model + ", baseUrl=" + baseUrl + ", apiKey=" + (apiKey.isEmpty() ? "" : "***")
                + ", stream=" + stream + ", requestTimeout=" + requestTimeout + ", retry=" + retry + "]";
    }
}
