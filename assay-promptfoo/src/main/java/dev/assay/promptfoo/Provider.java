package dev.assay.promptfoo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.model.ModelOptions;
import dev.assay.promptfoo.PromptfooConfig.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One provider of a config: a model called once per prompt and test, as promptfoo's providers are.
 *
 * @param id promptfoo's provider id ({@code openai:chat:gpt-4o-mini}, {@code anthropic:messages:M}, {@code echo})
 * @param label the {@code label} given; empty when none is (results then name the provider by its id, {@link #key})
 * @param config the provider's {@code config} ({@code temperature}, {@code max_tokens}, {@code apiBaseUrl},
 *     {@code apiKeyEnvar}...); an empty object when none is given
 * @param reportedId the id promptfoo's results name it by: its id as written, except that an OpenAI provider listed by
 *     its id alone is named by its instance's id, {@code openai:M} for {@code openai:chat:M}
 */
public record Provider(String id, String label, ObjectNode config, String reportedId) {
    /** The provider that answers with the prompt itself, as promptfoo's does; it calls nothing. */
    public static final String ECHO = "echo";

    public Provider {
        Objects.requireNonNull(id, "id");
        label = label == null ? "" : label;
        config = config == null ? Json.object() : config.deepCopy();
        reportedId = reportedId == null ? id : reportedId;
    }

    /** {@return the key results name this provider by, and each case is bound to it by: its label, else its id} */
    public String key() {
        return label.isEmpty() ? id : label;
    }

    /** {@return whether this provider is promptfoo's {@code echo}} */
    public boolean isEcho() {
        return id.equals(ECHO);
    }

    /**
     * {@return the model options of this provider}: {@code openai:chat:M} and {@code openai:M} are Assay's
     * {@code openai:M}, {@code anthropic:messages:M} is {@code anthropic:M}; the base URL is {@code config.apiBaseUrl}
     * (or {@code apiHost}), else promptfoo's {@code OPENAI_BASE_URL} / {@code OPENAI_API_BASE_URL} variables for
     * OpenAI; the key's variable is {@code config.apiKeyEnvar}, else the provider's default
     *
     * @param env reads the base URL variables (never a key)
     */
    public ModelOptions modelOptions(Function<String, String> env) {
        String model = assayModel(id);
        String baseUrl = config.path("apiBaseUrl").asText(null);
        if (baseUrl == null && config.path("apiHost").isTextual()) {
            baseUrl = "https://" + config.path("apiHost").asText();
        }
        if (baseUrl == null && model.startsWith("openai:")) {
            baseUrl = firstSet(env, "OPENAI_BASE_URL", "OPENAI_API_BASE_URL", "OPENAI_API_HOST");
        }
        if (baseUrl == null && model.startsWith("anthropic:")) {
            baseUrl = firstSet(env, "ANTHROPIC_BASE_URL");
        }
        return new ModelOptions(model, baseUrl, config.path("apiKeyEnvar").asText(null), false, null, null);
    }

    /** {@return the sampling temperature the config sets; null for the model's default} */
    public Double temperature() {
        return config.path("temperature").isNumber()
                ? config.path("temperature").asDouble()
                : null;
    }

    /** {@return the output token limit the config sets ({@code max_tokens}); null for the model's default} */
    public Integer maxTokens() {
        JsonNode value = config.has("max_tokens") ? config.path("max_tokens") : config.path("max_completion_tokens");
        return value.isNumber() ? value.asInt() : null;
    }

    /** {@return whether Assay can call this provider: echo, an OpenAI chat model or an Anthropic messages model} */
    public static boolean supports(String id) {
        return id.equals(ECHO) || assayModelOrNull(id) != null;
    }

    private static String assayModel(String id) {
        String model = assayModelOrNull(id);
        if (model == null) {
            throw new IllegalArgumentException("unsupported provider " + id);
        }
        return model;
    }

    private static String assayModelOrNull(String id) {
        String[] parts = id.split(":", -1);
        if (parts.length == 3 && parts[0].equals("openai") && parts[1].equals("chat") && !parts[2].isBlank()) {
            return "openai:" + parts[2];
        }
        if (parts.length == 2 && parts[0].equals("openai") && !parts[1].isBlank() && !isOpenAiKind(parts[1])) {
            return "openai:" + parts[1];
        }
        if (parts.length == 3 && parts[0].equals("anthropic") && parts[1].equals("messages") && !parts[2].isBlank()) {
            return "anthropic:" + parts[2];
        }
        return null;
    }

    /** {@code openai:embedding}, {@code openai:completion}... name a kind, not a model. */
    private static boolean isOpenAiKind(String word) {
        return List.of("chat", "completion", "embedding", "embeddings", "assistant", "realtime", "responses", "image")
                .contains(word.toLowerCase(Locale.ROOT));
    }

    private static String firstSet(Function<String, String> env, String... names) {
        for (String name : names) {
            String value = env.apply(name);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }

    /** The keys of a provider Assay honours. */
    private static final Set<String> HONOURED = Set.of("id", "label", "config");

    /** The provider config keys Assay honours ({@link #modelOptions}, {@link #temperature}, {@link #maxTokens}). */
    private static final Set<String> HONOURED_CONFIG =
            Set.of("temperature", "max_tokens", "max_completion_tokens", "apiBaseUrl", "apiHost", "apiKeyEnvar");

    /**
     * {@return the providers {@code node} lists}: an id, a list of ids, {@code {id, label, config}} objects, or one-key
     * mappings of an id to its options; an unsupported id or a label used twice is a problem at its key
     */
    static List<Provider> readAll(JsonNode node, String field, Context context) {
        var providers = new ArrayList<Provider>();
        if (node.isMissingNode() || node.isNull()) {
            context.problem(
                    "promptfoo.missing_providers", field, "the config has no providers", "at least one provider");
            return providers;
        }
        List<JsonNode> entries = PromptfooConfig.listOf(node);
        for (int i = 0; i < entries.size(); i++) {
            JsonNode entry = entries.get(i);
            String key = field + "[" + i + "]";
            Provider provider = null;
            if (entry.isTextual()) {
                String id = entry.textValue().strip();
                provider = new Provider(id, null, null, id.replaceFirst("^openai:chat:", "openai:"));
            } else if (entry.isObject() && entry.path("id").isTextual()) {
                context.unhonoured(entry, HONOURED, "provider", context.source(), key);
                provider = new Provider(
                        entry.path("id").textValue().strip(),
                        entry.path("label").asText(null),
                        entry.path("config").isObject() ? (ObjectNode) entry.path("config") : null,
                        null);
            } else if (entry.isObject()
                    && entry.size() == 1
                    && (entry.elements().next().isObject()
                            || entry.elements().next().isNull())) {
                var only = entry.properties().iterator().next();
                JsonNode options = only.getValue();
                if (options.isObject()) {
                    context.unhonoured(options, HONOURED, "provider", context.source(), key + "." + only.getKey());
                }
                provider = new Provider(
                        options.path("id").asText(only.getKey()).strip(),
                        options.path("label").asText(null),
                        options.path("config").isObject() ? (ObjectNode) options.path("config") : null,
                        null);
            } else {
                context.problem(
                        "promptfoo.invalid_provider",
                        key,
                        "a provider is neither an id nor {id, label, config}",
                        "an id such as openai:chat:gpt-4o-mini, or {id, label, config}");
                continue;
            }
            if (!supports(provider.id())) {
                context.problem(
                        "promptfoo.unsupported_provider",
                        key + ".id",
                        "the provider " + provider.id() + " is not supported (docs/promptfoo.md)",
                        "openai:chat:MODEL, openai:MODEL, anthropic:messages:MODEL or echo");
                continue;
            }
            context.unhonoured(
                    provider.config(), HONOURED_CONFIG, "provider config", context.source(), key + ".config");
            String label = provider.key();
            if (providers.stream().anyMatch(other -> other.key().equals(label))) {
                context.problem(
                        "promptfoo.duplicate_provider",
                        key,
                        "two providers are named " + label + ": give each a label",
                        "a unique label per provider");
                continue;
            }
            providers.add(provider);
        }
        return providers;
    }
}
