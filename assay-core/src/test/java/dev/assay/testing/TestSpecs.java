package dev.assay.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.DatasetMapping;
import dev.assay.cases.Selection;
import dev.assay.cost.Budget;
import dev.assay.cost.PriceTable;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunConfig;
import dev.assay.run.RunSettings;
import dev.assay.run.ToolOptions;
import dev.assay.run.UserModelOptions;
import dev.assay.run.WorkspacePolicy;
import dev.assay.score.Reducer;
import dev.assay.score.Weights;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.ToolMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Run configurations for tests that build a plan by hand (a suite in memory, a scripted system under test): the spec is
 * resolved by {@link RunSettings}, as every front end's is, so a test's engine runs with Assay's defaults unless it
 * says otherwise. The spec names a suite directory and a model only for the record; the plan's own suite and subject
 * are what run.
 */
public final class TestSpecs {
    private TestSpecs() {}

    /** {@return Assay's defaults for a run whose workspaces go under {@code workspaceRoot}} */
    public static RunConfig config(Path workspaceRoot) {
        return config(workspaceRoot, settings -> {});
    }

    /** {@return the run {@code settings} describe over Assay's defaults, its workspaces under {@code workspaceRoot}} */
    public static RunConfig config(Path workspaceRoot, Consumer<RunSettings> settings) {
        return new RunConfig(null, workspaceRoot, spec(settings));
    }

    /** {@return the spec {@code settings} describe over Assay's defaults, for a scripted model} */
    public static EvalSpec spec(Consumer<RunSettings> settings) {
        var given = new RunSettings().suites(List.of(Path.of("suite"))).model(ModelOptions.of("scripted"));
        settings.accept(given);
        return given.resolve();
    }

    /**
     * {@return the spec that every front end (flags, {@code assay.yaml}, the API's start body) is asked for in the
     * tests that hold them to one description}: a model with its endpoint, key, streaming and retries, every selection
     * field, the agent loop's settings, a tool list, a user model, an environment, a scoring preset with a weight over
     * it, a metric, a cluster field and reducer, the limits and a token budget
     *
     * @param suite the one suite
     * @param mapping how the suite's rows become cases; null for a case file
     * @param maxRetryWait the cap on all waits of one model call (the API has no field for it: the default there)
     */
    public static EvalSpec everySetting(Path suite, DatasetMapping mapping, Duration maxRetryWait) {
        return new EvalSpec(
                new EvalSpec.Dataset(
                        List.of(suite),
                        null,
                        true,
                        new Selection(List.of("tool", "logic"), "en-US", List.of("files"), List.of(), 7L, 3),
                        mapping,
                        (ObjectNode) Json.parse(
                                "{\"mcp\": {\"command\": [\"python3\", \"env/shop.py\"]}, \"state\": \"shop://db\"}"),
                        null,
                        null),
                new EvalSpec.SubjectSpec(
                        new EvalSpec.Model(new ModelOptions(
                                "openai:gpt-test",
                                "http://127.0.0.1:9/v1",
                                "TEST_API_KEY",
                                true,
                                null,
                                RetryPolicy.defaults().withMaxAttempts(3).withMaxTotalWait(maxRetryWait))),
                        new AgentSettings(ToolMode.TEXT, 5, 0.5, 7L, 256),
                        new ToolOptions(List.of(), null, List.of("read_file"), false),
                        new UserModelOptions("openai:gpt-user", "http://127.0.0.1:8/v1", "USER_API_KEY")),
                new EvalSpec.Scoring(
                                Weights.preset(Weights.Scoring.REFERENCE).with(Map.of("tool", 50.0)),
                                List.of("weighted-score"),
                                false)
                        .withClusterBy("scenario")
                        .withReducer(Reducer.MAJORITY),
                new EvalSpec.Limits(
                        8,
                        Duration.ofSeconds(30),
                        2,
                        WorkspacePolicy.KEEP_ALL,
                        PriceTable.shipped(),
                        new Budget(null, 1000L, 100L)),
                "ann",
                EvalSpec.Observed.NONE);
    }

    /** {@return {@code spec} as the store gives it back: written as JSON text and read} */
    public static EvalSpec roundTrip(EvalSpec spec) {
        return EvalSpec.read(Json.parse(Json.write(spec)));
    }

    /** {@return {@code config} as prepared with tool provider {@code name}'s snapshot} */
    public static RunConfig withToolSnapshot(
            RunConfig config, String name, com.fasterxml.jackson.databind.JsonNode snapshot) {
        EvalSpec spec = config.spec();
        return new RunConfig(
                config.runId(),
                config.workspaceRoot(),
                spec.withObserved(new EvalSpec.Observed(null, null, null, java.util.Map.of(name, snapshot))));
    }
}
