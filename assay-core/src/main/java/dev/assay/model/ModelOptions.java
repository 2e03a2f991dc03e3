package dev.assay.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.EndpointUrl;
import dev.assay.EnvNames;
import dev.assay.Json;
import dev.assay.Problem;
import java.time.Duration;
import java.util.Objects;

/**
 * Which model to evaluate and how to reach it, as the user gave it. Holds the NAME of the environment variable with the
 * API key, never the key.
 *
 * @param model {@code mock}, {@code openai:MODEL} for any OpenAI-compatible API, or {@code anthropic:MODEL}
 * @param baseUrl the API root; null for the provider's default
 * @param apiKeyEnv the environment variable holding the key (default {@code OPENAI_API_KEY}, or
 *     {@code ANTHROPIC_API_KEY} for {@code anthropic:} models)
 * @param stream whether to request streaming responses
 * @param requestTimeout the limit for one HTTP request (default {@value #DEFAULT_REQUEST_TIMEOUT_S} s)
 * @param retry retries of transient failures
 * @param apiKeyEnvNamed whether the user named {@code apiKeyEnv} ({@code --api-key-env}, {@code api_key_env}); a
 *     default variable's key is sent only to the provider's own host (see {@link ChatModels})
 */
public record ModelOptions(
        String model,
        String baseUrl,
        String apiKeyEnv,
        boolean stream,
        Duration requestTimeout,
        RetryPolicy retry,
        boolean apiKeyEnvNamed) {
    /**
     * Seconds one request to a model (a judge's included) may take unless a source says otherwise: the one place this
     * default is written.
     */
    public static final int DEFAULT_REQUEST_TIMEOUT_S = 120;
    /** {@link #DEFAULT_REQUEST_TIMEOUT_S} as a duration. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_REQUEST_TIMEOUT_S);

    /** Options whose key variable counts as named when one is given (non-blank), else the provider's default. */
    public ModelOptions(
            String model,
            String baseUrl,
            String apiKeyEnv,
            boolean stream,
            Duration requestTimeout,
            RetryPolicy retry) {
        this(model, baseUrl, apiKeyEnv, stream, requestTimeout, retry, apiKeyEnv != null && !apiKeyEnv.isBlank());
    }

    public ModelOptions {
        Objects.requireNonNull(model, "model");
        apiKeyEnv = apiKeyEnv == null || apiKeyEnv.isBlank()
                ? model.strip().startsWith("anthropic:") ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"
                : apiKeyEnv;
        if (!EnvNames.isName(apiKeyEnv)) {
            throw new AssayException(Problem.of(
                            "config.invalid_api_key_env",
                            "api_key_env must be the NAME of an environment variable (letters, digits, '_'), got '"
                                    + apiKeyEnv + "'")
                    .withDetail("field", "api_key_env"));
        }
        requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
        retry = retry == null ? RetryPolicy.defaults() : retry;
    }

    public static ModelOptions of(String model) {
        return new ModelOptions(model, null, null, false, null, null);
    }

    /**
     * {@return the options for the run's configuration snapshot: the key's variable name, never its value, and the base
     * URL without credentials written into it}
     */
    public JsonNode describe() {
        ObjectNode node = Json.object();
        node.put("model", model);
        node.put("base_url", EndpointUrl.redacted(baseUrl));
        node.put("api_key_env", apiKeyEnv);
        node.put("api_key_env_named", apiKeyEnvNamed);
        node.put("stream", stream);
        node.put("request_timeout_s", requestTimeout.toMillis() / 1000.0);
        node.set("retry", retry.describe());
        return node;
    }

    /**
     * {@return the options {@link #describe()} wrote, as a resumed run reads them back: the key is read again from the
     * variable they name}
     */
    public static ModelOptions fromSnapshot(JsonNode node) {
        JsonNode timeout = node.path("request_timeout_s");
        return new ModelOptions(
                node.path("model").asText(),
                node.path("base_url").asText(null),
                node.path("api_key_env").asText(null),
                node.path("stream").asBoolean(),
                timeout.isNumber() ? Duration.ofMillis(Math.round(timeout.asDouble() * 1000)) : null,
                RetryPolicy.read(node.path("retry")),
                node.path("api_key_env_named").asBoolean(false));
    }
}
