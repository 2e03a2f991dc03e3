package dev.assay.model.anthropic;

import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * How to reach Anthropic's Messages API.
 *
 * @param model the model id, e.g. {@code claude-sonnet-4-5}
 * @param baseUrl the API root without {@code /v1}; null or blank for {@value #DEFAULT_BASE_URL}
 * @param apiKey the key, read from an environment variable at the edge; empty for servers without auth. Never stored,
 *     logged or reported: {@link #toString()} hides it
 * @param requestTimeout the limit for one HTTP request (default {@link ModelOptions#DEFAULT_REQUEST_TIMEOUT})
 * @param retry retries of transient failures
 * @param defaultMaxTokens the output-token cap when a request sets none; the API requires one (default 4096)
 */
public record AnthropicSettings(
        String model, String baseUrl, String apiKey, Duration requestTimeout, RetryPolicy retry, int defaultMaxTokens) {
    public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";

    public AnthropicSettings {
        Objects.requireNonNull(model, "model");
        baseUrl = baseUrl == null || baseUrl.isBlank() ? DEFAULT_BASE_URL : baseUrl;
        apiKey = apiKey == null ? "" : apiKey;
        requestTimeout = requestTimeout == null ? ModelOptions.DEFAULT_REQUEST_TIMEOUT : requestTimeout;
        retry = retry == null ? RetryPolicy.defaults() : retry;
        defaultMaxTokens = defaultMaxTokens <= 0 ? 4096 : defaultMaxTokens;
    }

    @Override
    public String toString() {
        return "AnthropicSettings[model=" + model + ", baseUrl=" + baseUrl + ", apiKey="
                + (apiKey.isEmpty() ? "" : "***") + ", requestTimeout=" + requestTimeout + ", retry=" + retry
                + ", defaultMaxTokens=" + defaultMaxTokens + "]";
    }
}
