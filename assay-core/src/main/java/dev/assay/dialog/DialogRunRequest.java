package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.judge.Judge;
import dev.assay.check.judge.JudgeCache;
import dev.assay.check.judge.JudgeModel;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import dev.assay.result.Run;
import dev.assay.subject.sse.SseAgentSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The description of a dialog run: the dataset, the system under test (a chat model or an agent service), the metrics
 * and the judge, the limits, and where the reference files go. The CLI ({@code assay dialog run}) and the API
 * ({@code "kind": "dialog"}) describe a run with it; it is stored with the run as versioned JSON under the config
 * snapshot's {@value #SNAPSHOT_KEY} key ({@link #snapshot}), and {@link #fromSnapshot} reads it back, which is how
 * {@code assay run --resume} and {@code POST /api/runs/{id}/resume} continue a dialog run without the user repeating a
 * flag. Holds no secrets: API keys and the agent's credential are named by their environment variables. Immutable.
 *
 * @param dataset the dataset file
 * @param datasetName the dataset as the user named it (recorded as the manifest's {@code dataset_path})
 * @param model the chat model replaying the dialogs; null with an agent service
 * @param temperature the chat model's sampling temperature; null for the provider's default
 * @param seed the chat model's sampling seed; null for none
 * @param systemPrompt sent first in every chat model request; empty for none
 * @param agentService the agent service replaying the dialogs; null with a chat model. Exactly one is given
 * @param fieldMapping where the agent's turn reports hold the trace's fields; null with a chat model
 * @param promptVersion the label of the system prompt recorded in the manifest; empty for none
 * @param workersDialog dialogs replayed at once, >= 1
 * @param turnTimeout one call of one turn at most
 * @param turnRetries extra attempts after a failed turn, >= 0
 * @param score metrics profile and baseline option
 * @param judge the LLM judge of {@value ExplainabilityJudge#METRIC}; null for none
 * @param runDirectory where the reference files go
 * @param userId who runs it; empty when not given
 */
public record DialogRunRequest(
        Path dataset,
        String datasetName,
        ModelOptions model,
        Double temperature,
        Long seed,
        String systemPrompt,
        SseAgentSettings agentService,
        FieldMapping fieldMapping,
        String promptVersion,
        int workersDialog,
        Duration turnTimeout,
        int turnRetries,
        ScoreOptions score,
        JudgeSettings judge,
        Path runDirectory,
        String userId) {
    /** The key of the config snapshot under which a dialog run's description is stored. */
    public static final String SNAPSHOT_KEY = "request";

    /** The version of the description's layout; a run stored by a later Assay is not resumed here. */
    public static final int SPEC_VERSION = 1;

    public DialogRunRequest {
        Objects.requireNonNull(dataset, "dataset");
        datasetName = Objects.requireNonNullElse(datasetName, dataset.toString());
        if ((model == null) == (agentService == null)) {
            throw new IllegalArgumentException("give exactly one of a chat model and an agent service");
        }
        systemPrompt = Objects.requireNonNullElse(systemPrompt, "");
        fieldMapping = agentService == null ? null : Objects.requireNonNullElse(fieldMapping, FieldMapping.defaults());
        promptVersion = Objects.requireNonNullElse(promptVersion, "");
        turnTimeout = Objects.requireNonNullElse(turnTimeout, DialogRunConfig.DEFAULT_TURN_TIMEOUT);
        score = Objects.requireNonNullElse(score, ScoreOptions.defaults());
        Objects.requireNonNull(runDirectory, "runDirectory");
        userId = Objects.requireNonNullElse(userId, "");
    }

    /** {@return this description with its reference files going to {@code directory}} */
    public DialogRunRequest withRunDirectory(Path directory) {
        return new DialogRunRequest(
                dataset,
                datasetName,
                model,
                temperature,
                seed,
                systemPrompt,
                agentService,
                fieldMapping,
                promptVersion,
                workersDialog,
                turnTimeout,
                turnRetries,
                score,
                judge,
                directory,
                userId);
    }

    /**
     * The LLM judge of {@value ExplainabilityJudge#METRIC}, as the user named it.
     *
     * @param model the judge's model; its key is named by a variable
     * @param workers turns graded at once, >= 1
     */
    public record JudgeSettings(ModelOptions model, int workers) {
        public JudgeSettings {
            Objects.requireNonNull(model, "model");
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be at least 1, got " + workers);
            }
        }

        /**
         * {@return the judge}
         *
         * @param models creates its chat model
         * @param cache where its answers are kept
         */
        public ExplainabilityJudge open(Function<ModelOptions, ChatModel> models, JudgeCache cache) {
            ChatModel chat = models.apply(model);
            return new ExplainabilityJudge(
                    new Judge(new JudgeModel("default", chat, model.baseUrl(), null), cache), workers);
        }
    }

    /**
     * A dialog run ready for {@code run.Engine}: started as new or resumed, the workload is the same. Close it once the
     * run has ended: it holds the chat model's connections.
     *
     * @param workload the run's dialogs and how they are replayed and scored
     * @param data the dataset as loaded, with its skipped lines
     * @param subject the system under test
     */
    public record Prepared(DialogWorkload workload, Dataset data, DialogSubject subject) implements AutoCloseable {
        @Override
        public void close() {
            if (subject instanceof ChatModelSubject chat) {
                chat.model().close();
            }
        }
    }

    /**
     * Loads the dataset and builds the judge and the system under test, the judge first, so that a misconfigured judge
     * fails the run before any turn is replayed.
     *
     * @param runId the run's id
     * @param models creates chat models (the model under test and the judge's)
     * @param env reads environment variables: the agent service's credential only
     * @param log receives the agent service's retry lines
     * @param judgeCache where the judge's answers are kept
     * @throws AssayException {@code dialog.*} for an unreadable dataset, or the target's configuration problem
     *     ({@code target.missing_api_key}, ...)
     */
    public Prepared prepare(
            String runId,
            Function<ModelOptions, ChatModel> models,
            Function<String, String> env,
            Consumer<String> log,
            JudgeCache judgeCache) {
        Optional<ExplainabilityJudge> explainability =
                Optional.ofNullable(judge).map(settings -> settings.open(models, judgeCache));
        Dataset data = Dataset.load(dataset);
        DialogSubject subject;
        String subjectName;
        if (agentService != null) {
            var service = SseAgentService.open(agentService, runId, env, log);
            subject = new AgentServiceSubject(service, fieldMapping);
            subjectName = service.name();
        } else {
            subject = new ChatModelSubject(models.apply(model), systemPrompt, temperature, seed);
            subjectName = model.model();
        }
        var config = new DialogRunConfig(
                runId,
                datasetName,
                subjectName,
                promptVersion,
                workersDialog,
                turnTimeout,
                turnRetries,
                score,
                fieldMapping);
        return new Prepared(
                new DialogWorkload(data, subject, config, runDirectory, explainability, userId, snapshot()),
                data,
                subject);
    }

    /** {@return this description as stored with the run, read back by {@link #fromSnapshot}} */
    public ObjectNode snapshot() {
        ObjectNode node = Json.object();
        node.put("spec_version", SPEC_VERSION);
        node.put("dataset", datasetName);
        // Where the dataset was, wherever the run is resumed from.
        node.put("dataset_resolved", dataset.toAbsolutePath().normalize().toString());
        if (model != null) {
            node.set("model", model.describe());
            node.put("temperature", temperature);
            node.put("seed", seed);
            node.put("system_prompt", systemPrompt);
        } else {
            node.set("agent", agentService.describe());
            node.set("field_mapping", fieldMapping.toJson());
        }
        node.put("prompt_version", promptVersion);
        node.put("workers_dialog", workersDialog);
        node.put("turn_timeout_s", turnTimeout.toMillis() / 1000.0);
        node.put("turn_retries", turnRetries);
        node.put("metrics_profile", score.profile().wireName());
        node.put("blank_memory_keys", score.blankMemoryKeys());
        if (judge != null) {
            ObjectNode judgeNode = node.putObject("judge");
            judgeNode.set("model", judge.model().describe());
            judgeNode.put("workers", judge.workers());
        }
        node.put("run_directory", runDirectory.toAbsolutePath().normalize().toString());
        node.put("user_id", userId);
        return node;
    }

    /**
     * {@return the description a stored dialog run was made from}: what resuming it needs, without the user repeating a
     * flag. Keys are read again from the variables the description names.
     *
     * @throws AssayException {@code run.not_resumable} for a run that is not a dialog run, one stored before dialog
     *     runs kept their description or by a later Assay, or one whose agent service's URL held credentials or a query
     *     (never stored)
     */
    public static DialogRunRequest fromSnapshot(Run run) {
        JsonNode node = run.config() == null ? Json.object() : run.config().path(SNAPSHOT_KEY);
        String why = !Run.DIALOG.equals(run.kind())
                ? "it is a " + run.kind() + " run, not a dialog run"
                : !node.isObject()
                        ? "it was stored before dialog runs kept their description; run it again with its flags"
                        : node.path("spec_version").asInt(0) != SPEC_VERSION
                                ? "its description is version "
                                        + node.path("spec_version").asInt(0) + ", this Assay reads version "
                                        + SPEC_VERSION
                                : node.has("agent")
                                        ? SseAgentSettings.notStoredWhole(node.path("agent"))
                                                .orElse(null)
                                        : null;
        if (why != null) {
            throw new AssayException(
                    Problem.of("run.not_resumable", "run " + run.runId() + " cannot be resumed: " + why)
                            .withDetail("run_id", run.runId()));
        }
        boolean agent = node.has("agent");
        JsonNode mapping = node.path("field_mapping");
        JsonNode judge = node.path("judge");
        return new DialogRunRequest(
                Path.of(node.path("dataset_resolved").asText()),
                node.path("dataset").asText(),
                agent ? null : ModelOptions.fromSnapshot(node.path("model")),
                node.path("temperature").isNumber() ? node.path("temperature").asDouble() : null,
                node.path("seed").isNumber() ? node.path("seed").asLong() : null,
                node.path("system_prompt").asText(""),
                agent ? SseAgentSettings.fromSnapshot(node.path("agent")) : null,
                agent
                        ? new FieldMapping(
                                mapping.path("recall").asText(""),
                                mapping.path("tools").asText(""),
                                mapping.path("compliance").asText(""),
                                mapping.path("profile_snapshot").asText(""))
                        : null,
                node.path("prompt_version").asText(""),
                node.path("workers_dialog").asInt(1),
                Duration.ofMillis(Math.round(node.path("turn_timeout_s").asDouble(120) * 1000)),
                node.path("turn_retries").asInt(DialogRunConfig.DEFAULT_TURN_RETRIES),
                new ScoreOptions(
                        MetricsProfile.parse(node.path("metrics_profile").asText("memfin-v1")),
                        node.path("blank_memory_keys").asBoolean(false)),
                judge.isObject()
                        ? new JudgeSettings(
                                ModelOptions.fromSnapshot(judge.path("model")),
                                judge.path("workers").asInt(1))
                        : null,
                Path.of(node.path("run_directory").asText()),
                node.path("user_id").asText(run.userId()));
    }
}
