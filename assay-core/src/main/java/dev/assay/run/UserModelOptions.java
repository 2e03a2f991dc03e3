package dev.assay.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.EndpointUrl;
import dev.assay.Json;
import dev.assay.model.ModelOptions;

/**
 * The model that plays conversation cases' simulated users, and how to reach it ({@code --user-model},
 * {@code --user-base-url}, {@code --user-api-key-env}; {@code user_model}, {@code user_base_url},
 * {@code user_api_key_env} in {@code assay.yaml} and the API's start body). Each is null where no source gives it:
 * without a base URL or key variable of its own the user model uses the run's. Holds the key's variable name, never the
 * key.
 *
 * @param model the run's user model ({@code openai:gpt-4o-mini}); null when only cases name theirs
 * @param baseUrl the user model's API root; null for the run's
 * @param apiKeyEnv the variable holding the user model's key; null for the run's
 */
public record UserModelOptions(String model, String baseUrl, String apiKeyEnv) {
    /** No user model of the run's own. */
    public static final UserModelOptions NONE = new UserModelOptions(null, null, null);

    /**
     * {@return how to reach the user model {@code name}}: its own base URL and key variable where given, else the run
     * model's (a key variable the user named; else the provider's default for the user model's kind), with the run
     * model's request timeout and retries
     *
     * @param run the run's model; null for a run without one (a plug-in's system under test)
     */
    public ModelOptions optionsFor(String name, ModelOptions run) {
        String runKey = run != null && run.apiKeyEnvNamed() ? run.apiKeyEnv() : null;
        return new ModelOptions(
                name,
                baseUrl != null ? baseUrl : run == null ? null : run.baseUrl(),
                apiKeyEnv != null ? apiKeyEnv : runKey,
                false,
                run == null ? null : run.requestTimeout(),
                run == null ? null : run.retry());
    }

    /** {@return the options for the run's snapshot: the key's variable name, the base URL without credentials} */
    JsonNode describe() {
        ObjectNode node = Json.object();
        node.put("model", model);
        node.put("base_url", EndpointUrl.redacted(baseUrl));
        node.put("api_key_env", apiKeyEnv);
        return node;
    }

    /** {@return the options a snapshot written by {@link #describe} holds; {@link #NONE} when it holds none} */
    static UserModelOptions fromSnapshot(JsonNode node) {
        return new UserModelOptions(
                text(node.path("model")), text(node.path("base_url")), text(node.path("api_key_env")));
    }

    private static String text(JsonNode value) {
        return value.isTextual() ? value.textValue() : null;
    }
}
