package dev.assay.cli;

import dev.assay.check.judge.JudgeCache;
import dev.assay.dialog.DialogPreparation;
import dev.assay.dialog.ExplainabilityJudge;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import dev.assay.run.EvalSpec;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The options of the optional LLM judge of {@code assay dialog} ({@code --judge-model}, {@code --judge-base-url},
 * {@code --judge-api-key-env}, {@code --workers-judge}). Without {@code --judge-model} no judge is asked and the output
 * files are those of the reference. Holds the NAME of the key's variable, never the key.
 */
final class JudgeOptionsMixin {
    @Option(
            names = "--judge-model",
            paramLabel = "<model>",
            description = "Also grade each M5-eligible reply with this LLM judge (openai:MODEL, anthropic:MODEL, "
                    + "mock) into judge_summary.json and judge_eval.jsonl; default: no judge.")
    String model;

    @Option(
            names = "--judge-base-url",
            paramLabel = "<url>",
            converter = OptionValues.HttpUrl.class,
            description = "API root of the judge's OpenAI-compatible server (default: the provider's).")
    String baseUrl;

    @Option(
            names = "--judge-api-key-env",
            paramLabel = "<name>",
            converter = OptionValues.EnvName.class,
            description = "Environment variable holding the judge's API key (default: OPENAI_API_KEY, or "
                    + "ANTHROPIC_API_KEY for anthropic:).")
    String apiKeyEnv;

    @Option(
            names = "--workers-judge",
            paramLabel = "N",
            defaultValue = "1",
            converter = OptionValues.AtLeastOne.class,
            description = "Judge requests in parallel; default ${DEFAULT-VALUE}.")
    int workers;

    /**
     * {@return the judge, when {@code --judge-model} was given}
     *
     * @param models creates the judge's chat model
     * @param home {@code $ASSAY_HOME}: answers are cached in {@code cache/judge} below it
     */
    Optional<ExplainabilityJudge> judge(Function<ModelOptions, ChatModel> models, Path home) {
        return settings().map(settings -> DialogPreparation.judge(settings, models, cache(home)));
    }

    /** {@return the judge as the options name it, when {@code --judge-model} was given} */
    Optional<EvalSpec.DialogJudge> settings() {
        return model == null
                ? Optional.empty()
                : Optional.of(new EvalSpec.DialogJudge(
                        new ModelOptions(model, baseUrl, apiKeyEnv, false, null, null), workers));
    }

    /**
     * {@return where the judge's answers are kept: {@code cache/judge} below {@code home}, which is created owner-only
     * when it does not exist ({@link AssayHome#createIfMissing})}
     */
    static JudgeCache cache(Path home) {
        return JudgeCache.in(AssayHome.createIfMissing(home).resolve("cache").resolve("judge"));
    }
}
