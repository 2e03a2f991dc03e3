package dev.assay.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.dialog.DialogRunConfig;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.run.EvalSpec;
import dev.assay.run.FieldMapping;
import dev.assay.run.MetricsProfile;
import dev.assay.run.RunSettings;
import dev.assay.run.ScoreOptions;
import dev.assay.subject.sse.SseAgentSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The start body of a dialog run ({@code "kind": "dialog"}): {@code dataset} (required, see {@code GET /api/datasets}),
 * {@code model_name} (required), {@code base_url}, {@code api_key_env}, {@code user_id}, {@code system_prompt},
 * {@code concurrency} (dialogs at once, 1–64, default 1, as {@code --workers-dialog}), {@code timeout_s} (one turn's
 * time limit, default 120, as {@code --turn-timeout}), {@code retries} (extra attempts of a failed turn, 0–10, default
 * 1, as {@code --turn-retries}), {@code metrics_profile} and {@code blank_memory_keys}. Every mistake is a
 * {@code request.invalid_field} naming the field.
 *
 * @param dataset the dataset file
 * @param datasetName its name in the datasets directory, recorded in the run
 * @param model the model replaying the dialogs; null with an agent service
 * @param agent the agent service replaying them; null with a model
 * @param userId who runs it; empty when not given
 * @param systemPrompt sent first in every request; empty for none
 * @param concurrency dialogs replayed at once
 * @param turnTimeout one turn's time limit
 * @param turnRetries extra attempts after a failed or timed-out turn
 * @param score metrics profile and baseline option
 */
record DialogStartBody(
        Path dataset,
        String datasetName,
        ModelOptions model,
        Agent agent,
        String userId,
        String systemPrompt,
        int concurrency,
        Duration turnTimeout,
        int turnRetries,
        ScoreOptions score) {

    /**
     * An agent service that replays the dialogs.
     *
     * @param settings where it is and how to call it
     * @param fieldMapping where its turn reports hold the trace's fields
     */
    record Agent(SseAgentSettings settings, FieldMapping fieldMapping) {}

    private static final Set<String> AGENT_FIELDS = Set.of("url", "model", "auth_env", "field_mapping");

    private static final Set<String> FIELDS = Set.of(
            "kind",
            "dataset",
            "agent",
            "model_name",
            "base_url",
            "api_key_env",
            "user_id",
            "system_prompt",
            "concurrency",
            "timeout_s",
            "retries",
            "metrics_profile",
            "blank_memory_keys");

    /**
     * {@return the run this body describes, as {@code assay dialog run} would describe it}
     *
     * @param runDirectory where its reference files go
     */
    EvalSpec spec(Path runDirectory) {
        return new RunSettings()
                .dialogs(new EvalSpec.Dialogs(
                        datasetName,
                        dataset,
                        runDirectory,
                        systemPrompt,
                        DialogRunConfig.promptVersion(systemPrompt),
                        agent == null ? null : agent.fieldMapping(),
                        turnRetries,
                        score,
                        null))
                .model(model)
                .agentService(agent == null ? null : agent.settings())
                .concurrency(concurrency)
                .timeout(turnTimeout)
                .userId(userId)
                .resolve();
    }

    /** {@return whether the body asks for a dialog run} */
    static boolean isDialog(JsonNode body) {
        return body != null
                && dev.assay.result.RunKind.DIALOG
                        .wireName()
                        .equals(body.path("kind").asText(null));
    }

    static DialogStartBody parse(JsonNode body, Datasets datasets, String adminTokenVariable) {
        if (body == null || !body.isObject()) {
            throw ApiProblems.badField("body", "the body must be a JSON object");
        }
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw ApiProblems.badField(name, "unknown field '" + name + "' for a dialog run");
            }
        }
        var reader = new StartBody.Reader((ObjectNode) body);
        String dataset = reader.text("dataset", null);
        if (dataset == null || dataset.isBlank()) {
            throw ApiProblems.badField("dataset", "dataset is required; see GET /api/datasets");
        }
        Path file = datasets.resolve(dataset.strip());
        Double timeout = reader.number("timeout_s", null, 1, 86_400);
        Duration turnTimeout =
                timeout == null ? EvalSpec.Limits.DEFAULT_TIMEOUT : Duration.ofMillis((long) (timeout * 1000));
        MetricsProfile profile;
        try {
            profile = MetricsProfile.parse(reader.text("metrics_profile", MetricsProfile.MEMFIN_V1.wireName()));
        } catch (AssayException unknown) {
            throw ApiProblems.badField("metrics_profile", unknown.problem().message());
        }
        Boolean blank = reader.flag("blank_memory_keys");
        int concurrency = reader.integer("concurrency", (long) EvalSpec.Dialogs.DEFAULT_CONCURRENCY, 1, 64)
                .intValue();
        JsonNode agentField = body.get("agent");
        boolean hasAgent = agentField != null && !agentField.isNull();
        if (hasAgent == body.hasNonNull("model_name")) {
            throw ApiProblems.badField("model_name", "give exactly one of model_name and agent");
        }
        return new DialogStartBody(
                file,
                dataset.strip(),
                hasAgent ? null : StartBody.model(reader, adminTokenVariable, turnTimeout),
                hasAgent ? agent(agentField, adminTokenVariable, concurrency) : null,
                reader.text("user_id", ""),
                reader.text("system_prompt", ""),
                concurrency,
                turnTimeout,
                reader.integer("retries", (long) EvalSpec.Dialogs.DEFAULT_TURN_RETRIES, 0, 10)
                        .intValue(),
                new ScoreOptions(profile, blank != null && blank));
    }

    private static Agent agent(JsonNode field, String adminTokenVariable, int concurrency) {
        if (!field.isObject()) {
            throw ApiProblems.badField("agent", "agent must be an object: {url, model, auth_env, field_mapping}");
        }
        for (Iterator<String> names = field.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!AGENT_FIELDS.contains(name)) {
                throw ApiProblems.badField("agent." + name, "unknown field '" + name + "'");
            }
        }
        var reader = new StartBody.Reader((ObjectNode) field);
        String url = reader.text("url", null);
        if (url == null || url.isBlank()) {
            throw ApiProblems.badField("agent.url", "agent.url is required: the agent service's http(s) endpoint");
        }
        String authEnv = reader.text("auth_env", null);
        if (authEnv != null && !StartBody.isKeyVariable(authEnv, adminTokenVariable)) {
            throw ApiProblems.badField(
                    "agent.auth_env", "agent.auth_env must name a key variable (upper case, ending in _KEY or _TOKEN)");
        }
        FieldMapping mapping;
        try {
            mapping = FieldMapping.parse(reader.text("field_mapping", null));
        } catch (AssayException invalid) {
            throw ApiProblems.badField("agent.field_mapping", invalid.problem().message());
        }
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException notUri) {
            throw ApiProblems.badField("agent.url", "agent.url is not a URL: '" + url + "'");
        }
        try {
            return new Agent(
                    new SseAgentSettings(
                            uri,
                            null,
                            reader.text("model", ""),
                            "",
                            List.of(),
                            null,
                            null,
                            null,
                            authEnv,
                            false,
                            null,
                            null,
                            RetryPolicy.defaults(),
                            concurrency),
                    mapping);
        } catch (AssayException invalid) {
            throw ApiProblems.badField("agent.url", invalid.problem().message());
        }
    }
}
