package dev.assay.cli;

import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The options that name a chat model and how it samples ({@code --model}, {@code --base-url}, {@code --api-key-env},
 * {@code --temperature}, {@code --seed}), shared by the commands that call models. Holds the NAME of the key's
 * variable, never the key.
 */
final class ModelOptionsMixin {
    @Option(
            names = {"-m", "--model"},
            paramLabel = "<model>",
            description = "The model: mock (offline, fixed answer), openai:MODEL for any OpenAI-compatible API, "
                    + "or anthropic:MODEL. 'run' takes it several times: each case then runs against each model.")
    List<String> models = new ArrayList<>();

    @Option(
            names = "--base-url",
            paramLabel = "<url>",
            converter = OptionValues.HttpUrl.class,
            description = "API root of an OpenAI-compatible server, e.g. http://localhost:11434/v1 (default: OpenAI).")
    String baseUrl;

    @Option(
            names = "--api-key-env",
            paramLabel = "<name>",
            converter = OptionValues.EnvName.class,
            description = "Environment variable holding the API key (default: OPENAI_API_KEY, or ANTHROPIC_API_KEY for "
                    + "anthropic:). Keys are never stored.")
    String apiKeyEnv;

    @Option(
            names = "--temperature",
            paramLabel = "<t>",
            converter = OptionValues.Temperature.class,
            description = "Sampling temperature, 0 to 2 (default: the API's).")
    Double temperature;

    @Option(
            names = "--seed",
            paramLabel = "<n>",
            description = "Sampling seed where the API takes one (default: none); 'run' also shuffles the selection "
                    + "with it before --limit.")
    Long seed;

    /** {@return whether {@code --model} was given} */
    boolean given() {
        return !models.isEmpty();
    }

    /**
     * {@return the one model given, for a command that evaluates one}
     *
     * @throws ParameterException when several were given
     */
    String model(CommandLine commandLine) {
        if (models.size() > 1) {
            throw new ParameterException(commandLine, "give one --model; only 'assay run' evaluates several at once");
        }
        return models.getFirst();
    }

    /**
     * {@return the model options for the target factory}
     *
     * @param commandLine the command, to refuse several models with
     * @param stream whether to request streaming responses
     * @param requestTimeout the limit for one request; null for the default
     * @param retry retries of transient failures; null for the defaults
     */
    ModelOptions toOptions(CommandLine commandLine, boolean stream, Duration requestTimeout, RetryPolicy retry) {
        return new ModelOptions(model(commandLine), baseUrl, apiKeyEnv, stream, requestTimeout, retry);
    }
}
