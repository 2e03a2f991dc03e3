package dev.assay.cli;

import dev.assay.config.AssayConfig;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.run.RunSettings;
import java.net.URI;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options of {@code assay run} that name the system under test: a model ({@link ModelOptionsMixin}), an agent
 * service ({@link AgentOptionsMixin} and {@code --agent-tools-url}, {@code --agent-workspace}), a recording
 * ({@code --replay}), a plug-in's ({@code --subject}) or a target of the configuration file ({@code --target}); a
 * second model to compare with ({@code --versus}); and the model playing the user of conversation cases
 * ({@code --user-model}). Holds the NAMES of the keys' variables, never the keys.
 */
final class RunSubjectOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Mixin
    ModelOptionsMixin modelFlags;

    @Mixin
    AgentOptionsMixin agentFlags;

    @Option(
            names = "--versus",
            paramLabel = "<model>",
            description = "Evaluate this model head to head against --model (A): each case runs against both. With "
                    + "--stop-when-decided the run stops as soon as one is shown better. docs/statistics.md.")
    String versus;

    @Option(
            names = "--versus-base-url",
            paramLabel = "<url>",
            converter = OptionValues.HttpUrl.class,
            description = "The --versus model's API root (default: --model's).")
    String versusBaseUrl;

    @Option(
            names = "--versus-api-key-env",
            paramLabel = "<name>",
            converter = OptionValues.EnvName.class,
            description = "The environment variable holding the --versus model's API key (default: --model's).")
    String versusApiKeyEnv;

    @Option(
            names = "--stop-when-decided",
            description = "With --versus: run the cases in a random order and start no further case once an "
                    + "always-valid sequential test on the paired scores decides which model is better (5 %% "
                    + "false-decision rate); the run ends finished, and the reports say when, why and what it saved.")
    boolean stopWhenDecided;

    @Option(
            names = "--agent-tools-url",
            paramLabel = "<url>",
            description = "GET this URL for the agent's tool list instead of --agent-tools.",
            converter = OptionValues.HttpUri.class)
    URI agentToolsUrl;

    @Option(
            names = "--agent-workspace",
            paramLabel = "<dir>",
            description = "A directory the agent shares with Assay: case workspaces are created here and their path "
                    + "is sent as {{workspace}}.")
    Path agentWorkspace;

    @Option(
            names = {"-t", "--target"},
            paramLabel = "<name>",
            description =
                    "A target named in the configuration file (default: its defaults.target when no --model, --subject, "
                            + "--agent or --replay is given).")
    String subjectName;

    @Option(
            names = "--replay",
            paramLabel = "<file>",
            description = "Re-score recorded transcripts (JSONL from 'runs export', or a report.json) without calling "
                    + "anything; cases the file lacks are skipped.")
    Path replay;

    @Option(
            names = "--subject",
            paramLabel = "<name[:argument]>",
            description = "Evaluate a plug-in's system under test (docs/extending.md), passing it the argument.")
    String subject;

    @Option(
            names = "--user-model",
            paramLabel = "<model>",
            description = "The model that plays the simulated user of conversation cases (their user field), e.g."
                    + " openai:gpt-4o-mini; a case's user.model wins. It uses --base-url and the key options unless"
                    + " --user-base-url and --user-api-key-env are given.")
    String userModel;

    @Option(
            names = "--user-base-url",
            paramLabel = "<url>",
            description = "The user model's API root (default: the run's --base-url).")
    String userBaseUrl;

    @Option(
            names = "--user-api-key-env",
            paramLabel = "<variable>",
            description = "The environment variable holding the user model's API key (default: the run's).")
    String userApiKeyEnv;

    /** {@return how many of --model, --agent, --replay and --subject were given: each names the system under test} */
    int named() {
        return (modelFlags.given() ? 1 : 0)
                + (agentFlags.given() ? 1 : 0)
                + (replay != null ? 1 : 0)
                + (subject != null ? 1 : 0);
    }

    /** {@return whether a flag names the system under test} */
    boolean given() {
        return named() > 0;
    }

    /** {@return the configured target to run: --target, else the file's default when no flag names what to run} */
    String configured(AssayConfig config) {
        if (subjectName != null) {
            if (config == null) {
                throw new ParameterException(
                        mixee.commandLine(), "--target needs a configuration file (--config or ./assay.yaml)");
            }
            return subjectName;
        }
        return config == null || given() ? null : config.defaultSubject();
    }

    /**
     * Adds what these options say to the command line's settings: only the options given.
     *
     * @param language the run's language, sent to an agent service as {{language}}; null for none
     * @param agentRetry how an agent service is retried before its stream starts
     */
    void addTo(RunSettings settings, String language, RetryPolicy agentRetry) {
        settings.seed(modelFlags.seed)
                .model(modelFlags.models.size() == 1 ? ModelOptions.of(modelFlags.models.getFirst()) : null)
                .models(
                        modelFlags.models.size() > 1
                                ? modelFlags.models.stream()
                                        .map(ModelOptions::of)
                                        .toList()
                                : null)
                .versus(versus == null ? null : ModelOptions.of(versus))
                .versusBaseUrl(versusBaseUrl)
                .versusApiKeyEnv(versusApiKeyEnv)
                .stopWhenDecided(stopWhenDecided ? true : null)
                .baseUrl(modelFlags.baseUrl)
                .apiKeyEnv(modelFlags.apiKeyEnv)
                .agentService(
                        agentFlags.given()
                                ? agentFlags.settings(
                                        agentToolsUrl,
                                        agentWorkspace != null,
                                        language == null ? "" : language,
                                        agentRetry,
                                        Integer.MAX_VALUE)
                                : null)
                .replay(replay)
                .subject(subject)
                .temperature(modelFlags.temperature)
                .userModel(userModel)
                .userBaseUrl(userBaseUrl)
                .userApiKeyEnv(userApiKeyEnv);
    }
}
