package dev.assay.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.cases.DatasetMapping;
import dev.assay.cost.Budget;
import dev.assay.model.ModelOptions;
import dev.assay.run.RunSettings;
import dev.assay.sandbox.ContainerSpec;
import dev.assay.sandbox.SandboxDefaults;
import dev.assay.score.Reducer;
import dev.assay.score.Weights;
import dev.assay.subject.ToolMode;
import dev.assay.tools.ToolNames;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A start body read as one source of a run's {@link RunSettings}: the plan's fields ({@code user_id},
 * {@code model_name}, {@code language}, {@code case_set}, {@code dimensions}, {@code tool_names},
 * {@code config_overrides}, {@code stream}) and Assay's ({@code base_url}, {@code api_key_env}, {@code concurrency},
 * {@code timeout_s}, {@code tool_mode}, {@code weights}, {@code scoring}, {@code metrics}, {@code dataset}: a dataset's
 * mapping, docs/datasets.md; {@code sandbox}: the container engine and the container of the cases that name none,
 * docs/sandboxes.md...). {@code config_overrides} may set any of these fields and wins over the top level. Every
 * mistake is a {@code request.invalid_field} naming the field.
 *
 * <p>{@code tool_names} becomes {@link dev.assay.run.ToolOptions#allowed()}: the model is offered only those tools and
 * the engine skips cases needing others ({@code case.missing_tools}).
 */
final class StartBody {
    private static final Set<String> FIELDS = Set.of(
            "user_id",
            "model_name",
            "models",
            "language",
            "case_set",
            "dimensions",
            "tool_names",
            "config_overrides",
            "stream",
            "base_url",
            "api_key_env",
            "concurrency",
            "timeout_s",
            "tool_mode",
            "weights",
            "scoring",
            "max_steps",
            "temperature",
            "max_tokens",
            "seed",
            "limit",
            "tags",
            "ids",
            "retries",
            "skip_invalid",
            "keep_workspaces",
            "samples",
            "queue",
            "metrics",
            "user_model",
            "user_base_url",
            "user_api_key_env",
            "environment",
            "sandbox",
            "max_cost_usd",
            "run_max_tokens",
            "case_max_tokens",
            "dataset",
            "cluster_by",
            "reducer");
    /** Only key-like variables may be named, so a caller cannot have any other environment value sent out. */
    private static final Pattern KEY_VARIABLE = Pattern.compile("[A-Z][A-Z0-9_]*_(API_KEY|KEY|TOKEN)");

    private StartBody() {}

    /**
     * {@return whether the body asks for the run's cases to be queued for workers ({@code "queue": true}) rather than
     * run in the server}: not a setting of the run (the run is the same wherever its cases run), so read apart
     */
    static boolean queued(JsonNode body) {
        JsonNode queue = body == null ? null : body.get("queue");
        if (queue == null || queue.isNull()) {
            return false;
        }
        if (!queue.isBoolean()) {
            throw ApiProblems.badField("queue", "queue must be true or false");
        }
        return queue.booleanValue();
    }

    /** {@return the reducer {@code reducer} names; null when absent} */
    private static Reducer reducer(String name) {
        try {
            return name == null ? null : Reducer.of(name);
        } catch (IllegalArgumentException e) {
            throw ApiProblems.badField("reducer", e.getMessage());
        }
    }

    /** {@return what the body says about the run, each field null when the body is silent} */
    static RunSettings parse(JsonNode body, CaseSets caseSets, String adminTokenVariable) {
        if (body == null || !body.isObject()) {
            throw ApiProblems.badField("body", "the body must be a JSON object");
        }
        ObjectNode fields = ((ObjectNode) body).deepCopy();
        JsonNode overrides = fields.remove("config_overrides");
        if (overrides != null && !overrides.isNull()) {
            if (!overrides.isObject()) {
                throw ApiProblems.badField("config_overrides", "config_overrides must be an object");
            }
            for (Iterator<String> names = overrides.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!FIELDS.contains(name) || name.equals("config_overrides")) {
                    throw ApiProblems.badField("config_overrides." + name, "unknown field '" + name + "'");
                }
                fields.set(name, overrides.get(name));
            }
        }
        for (Iterator<String> names = fields.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw ApiProblems.badField(name, "unknown field '" + name + "'");
            }
        }
        var reader = new Reader(fields);
        List<String> modelNames = reader.optionalStrings("models");
        ModelOptions model = modelNames == null ? model(reader, adminTokenVariable, null) : null;
        List<ModelOptions> models = modelNames == null ? null : models(reader, modelNames, adminTokenVariable);
        String caseSet = reader.text("case_set", null);
        if (caseSet == null || caseSet.isBlank()) {
            throw ApiProblems.badField("case_set", "case_set is required; see GET /api/suites");
        }
        Long maxTokens = reader.integer("max_tokens", null, 1, 1_000_000);
        Double timeout = reader.number("timeout_s", null, 0.001, 86_400);
        Budget limits = limits(reader);
        var settings = new RunSettings()
                        .suites(List.of(caseSets.resolve(caseSet.strip())))
                        .skipInvalid(reader.flag("skip_invalid"))
                        .dimensions(reader.optionalStrings("dimensions"))
                        .language(reader.text("language", null))
                        .tags(reader.optionalStrings("tags"))
                        .ids(reader.optionalStrings("ids"))
                        .seed(reader.integer("seed", null, Long.MIN_VALUE, Long.MAX_VALUE))
                        .limit(intOrNull(reader.integer("limit", null, 0, 1_000_000)))
                        .model(model)
                        .models(models)
                        .retries(intOrNull(reader.integer("retries", null, 0, 10)))
                        .stream(reader.flag("stream"))
                        .toolMode(reader.toolMode())
                        .maxSteps(intOrNull(reader.integer("max_steps", null, 1, 200)))
                        .temperature(reader.number("temperature", null, 0, 2))
                        .maxTokens(intOrNull(maxTokens))
                        .concurrency(intOrNull(reader.integer("concurrency", null, 1, 256)))
                        .timeout(timeout == null ? null : Duration.ofMillis((long) (timeout * 1000)))
                        .samples(intOrNull(reader.integer("samples", null, 1, 100)))
                        .keepWorkspaces(reader.flag("keep_workspaces"))
                        .userId(reader.text("user_id", null))
                        .metrics(reader.optionalStrings("metrics"))
                        .userModel(reader.text("user_model", null))
                        .userBaseUrl(userBaseUrl(reader))
                        .userApiKeyEnv(userKeyVariable(reader, adminTokenVariable))
                        .environment(environment(reader))
                        .maxCostUsd(limits.maxCostUsd())
                        .runMaxTokens(limits.maxTokens())
                        .caseMaxTokens(limits.caseMaxTokens())
                        .clusterBy(reader.text("cluster_by", null))
                        .reducer(reducer(reader.text("reducer", null)));
        reader.scoring(settings);
        SandboxDefaults sandbox = sandbox(fields.get(ContainerSpec.FIELD));
        settings.sandbox(sandbox.engine()).container(sandbox.container());
        if (fields.hasNonNull("dataset")) {
            try {
                settings.dataset(DatasetMapping.fromJson(fields.get("dataset"), "dataset"));
            } catch (AssayException e) {
                throw ApiProblems.badField(
                        String.valueOf(e.problem().details().get("field")),
                        e.problem().message());
            }
        }
        if (fields.hasNonNull("tool_names")) {
            List<String> tools = reader.strings("tool_names");
            // An empty allowed list means "all tools"; switching every tool off leaves only the loop's final_answer.
            settings.allowedTools(
                    tools.isEmpty()
                            ? List.of(ToolNames.FINAL_ANSWER)
                            : tools.stream()
                                    .map(ToolNames::canonical)
                                    .distinct()
                                    .toList());
        }
        return settings;
    }

    /**
     * {@return the model a body names: {@code model_name} (required), {@code base_url}, {@code api_key_env}, which may
     * only name a key-like variable other than the admin token's, so a caller cannot have another value sent out}
     *
     * @param requestTimeout the time limit of one request; null for the default
     */
    static ModelOptions model(Reader reader, String adminTokenVariable, Duration requestTimeout) {
        String model = reader.text("model_name", null);
        if (model == null || model.isBlank()) {
            throw ApiProblems.badField("model_name", "model_name is required: mock, or openai:MODEL");
        }
        return model(reader, model, adminTokenVariable, requestTimeout);
    }

    /** {@return {@code model} at the body's {@code base_url} with the key in its {@code api_key_env}, both checked} */
    private static ModelOptions model(Reader reader, String model, String adminTokenVariable, Duration requestTimeout) {
        String baseUrl = reader.text("base_url", null);
        if (baseUrl != null && !baseUrl.isBlank()) {
            checkUrl(baseUrl);
        }
        String keyVariable = reader.text("api_key_env", null);
        if (keyVariable != null && !isKeyVariable(keyVariable, adminTokenVariable)) {
            throw ApiProblems.badField(
                    "api_key_env",
                    "api_key_env must name a key variable such as OPENAI_API_KEY (upper case, ending in _API_KEY, _KEY or _TOKEN)");
        }
        return new ModelOptions(
                model.strip(),
                baseUrl == null || baseUrl.isBlank() ? null : baseUrl,
                keyVariable,
                false,
                requestTimeout,
                null);
    }

    /**
     * {@return the models of {@code models}: several, each case run against each, every one at the body's
     * {@code base_url} with the key in its {@code api_key_env}}
     */
    private static List<ModelOptions> models(Reader reader, List<String> names, String adminTokenVariable) {
        if (reader.body().hasNonNull("model_name")) {
            throw ApiProblems.badField("models", "give model_name (one model) or models (several), not both");
        }
        if (names.isEmpty()) {
            throw ApiProblems.badField("models", "models must name at least one model");
        }
        ModelOptions endpoint = model(reader, names.getFirst(), adminTokenVariable, null);
        return names.stream()
                .map(name -> new ModelOptions(
                        name,
                        endpoint.baseUrl(),
                        endpoint.apiKeyEnvNamed() ? endpoint.apiKeyEnv() : null,
                        false,
                        null,
                        null))
                .toList();
    }

    /** {@return the environment of the cases that name none ({@code environment}), as a case writes it; null} */
    private static ObjectNode environment(Reader reader) {
        JsonNode value = reader.body().get("environment");
        if (value == null || value.isNull()) {
            return null;
        }
        if (!(value instanceof ObjectNode environment)) {
            throw ApiProblems.badField(
                    "environment", "environment must be an object {\"mcp\": {\"command\": [...]}, \"state\": URI}");
        }
        return environment;
    }

    /**
     * {@return the engine and the container of the cases that name none ({@code sandbox}), as assay.yaml's
     * {@code defaults.sandbox}}
     */
    private static SandboxDefaults sandbox(JsonNode value) {
        if (value == null || value.isNull()) {
            return new SandboxDefaults(null, null);
        }
        try {
            return SandboxDefaults.parse(value);
        } catch (AssayException e) {
            throw ApiProblems.badField(
                    String.valueOf(e.problem().details().get("field")),
                    e.problem().message());
        }
    }

    /** {@return the user model's API root a body names ({@code user_base_url}), checked as {@code base_url} is} */
    private static String userBaseUrl(Reader reader) {
        String url = reader.text("user_base_url", null);
        if (url == null || url.isBlank()) {
            return null;
        }
        checkUrl(url);
        return url;
    }

    /** {@return the user model's key variable a body names ({@code user_api_key_env}), held to api_key_env's rule} */
    private static String userKeyVariable(Reader reader, String adminTokenVariable) {
        String variable = reader.text("user_api_key_env", null);
        if (variable != null && !isKeyVariable(variable, adminTokenVariable)) {
            throw ApiProblems.badField(
                    "user_api_key_env",
                    "user_api_key_env must name a key variable such as OPENAI_API_KEY (upper case, ending in _API_KEY, _KEY or _TOKEN)");
        }
        return variable;
    }

    /** {@return whether a body may name this variable: key-like, and not the admin token's} */
    static boolean isKeyVariable(String name, String adminTokenVariable) {
        return KEY_VARIABLE.matcher(name).matches() && !name.equals(adminTokenVariable);
    }

    private static Integer intOrNull(Long value) {
        return value == null ? null : value.intValue();
    }

    private static void checkUrl(String url) {
        try {
            URI uri = URI.create(url);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw ApiProblems.badField("base_url", "base_url must be an http or https URL, got '" + url + "'");
            }
        } catch (IllegalArgumentException e) {
            throw ApiProblems.badField("base_url", "base_url is not a URL: '" + url + "'");
        }
    }

    /**
     * {@return the limits a body sets: {@code max_cost_usd}, {@code run_max_tokens}, {@code case_max_tokens}, each
     * absent for none} A start body's, and a resume body's, which continues a run under them (docs/cost.md).
     */
    static Budget limits(Reader reader) {
        return new Budget(
                reader.number("max_cost_usd", null, 0, 1_000_000),
                reader.integer("run_max_tokens", null, 1, Long.MAX_VALUE),
                reader.integer("case_max_tokens", null, 1, Long.MAX_VALUE));
    }

    /** Typed reads of one body, each naming its field when the value has the wrong type or range. */
    record Reader(ObjectNode body) {
        String text(String field, String otherwise) {
            JsonNode node = body.get(field);
            if (node == null || node.isNull()) {
                return otherwise;
            }
            if (!node.isTextual()) {
                throw ApiProblems.badField(field, field + " must be a string");
            }
            return node.asText();
        }

        Boolean flag(String field) {
            JsonNode node = body.get(field);
            if (node == null || node.isNull()) {
                return null;
            }
            if (!node.isBoolean()) {
                throw ApiProblems.badField(field, field + " must be true or false");
            }
            return node.asBoolean();
        }

        Long integer(String field, Long otherwise, long min, long max) {
            JsonNode node = body.get(field);
            if (node == null || node.isNull()) {
                return otherwise;
            }
            if (!node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < min || node.asLong() > max) {
                throw ApiProblems.badField(field, field + " must be a whole number in " + min + ".." + max);
            }
            return node.asLong();
        }

        Double number(String field, Double otherwise, double min, double max) {
            JsonNode node = body.get(field);
            if (node == null || node.isNull()) {
                return otherwise;
            }
            if (!node.isNumber() || node.asDouble() < min || node.asDouble() > max) {
                throw ApiProblems.badField(field, field + " must be a number in " + min + ".." + max);
            }
            return node.asDouble();
        }

        List<String> optionalStrings(String field) {
            return body.hasNonNull(field) ? strings(field) : null;
        }

        List<String> strings(String field) {
            JsonNode node = body.get(field);
            if (node == null || node.isNull()) {
                return List.of();
            }
            if (!node.isArray()) {
                throw ApiProblems.badField(field, field + " must be a list of strings");
            }
            var values = new ArrayList<String>();
            for (JsonNode element : node) {
                if (!element.isTextual() || element.asText().isBlank()) {
                    throw ApiProblems.badField(field, field + " must be a list of non-empty strings");
                }
                values.add(element.asText().strip());
            }
            return values;
        }

        ToolMode toolMode() {
            String mode = text("tool_mode", null);
            if (mode == null) {
                return null;
            }
            try {
                return ToolMode.parse(mode);
            } catch (IllegalArgumentException e) {
                throw ApiProblems.badField("tool_mode", "tool_mode must be native or text, got '" + mode + "'");
            }
        }

        /**
         * {@code scoring} names a preset and {@code weights} overrides its weights of the dimensions it names, so
         * {@code {"tool": 50}} is enough (unlike the reference).
         */
        void scoring(RunSettings settings) {
            String preset = text("scoring", null);
            if (preset != null) {
                try {
                    settings.scoring(Weights.Scoring.of(preset));
                } catch (AssayException e) {
                    throw ApiProblems.badField("scoring", e.problem().message());
                }
            }
            JsonNode node = body.get("weights");
            if (node == null || node.isNull()) {
                return;
            }
            if (!node.isObject()) {
                throw ApiProblems.badField("weights", "weights must be an object of dimension to number");
            }
            Map<String, Double> weights = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : node.properties()) {
                if (!entry.getValue().isNumber() || entry.getValue().asDouble() < 0) {
                    throw ApiProblems.badField("weights." + entry.getKey(), "a weight must be a number >= 0");
                }
                weights.put(entry.getKey(), entry.getValue().asDouble());
            }
            settings.weights(weights);
        }
    }
}
