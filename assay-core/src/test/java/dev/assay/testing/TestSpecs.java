package dev.assay.testing;

import dev.assay.model.ModelOptions;
import dev.assay.run.EvalSpec;
import dev.assay.run.RunConfig;
import dev.assay.run.RunSettings;
import java.nio.file.Path;
import java.util.List;
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
