package dev.assay.check.judge;

import dev.assay.model.ChatModels;
import dev.assay.model.ModelOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A judge model of {@code assay.yaml}, for the {@code judge} checker.
 *
 * @param name the name checks use in {@code expected.model}; the first judge in the file is the default
 * @param model which model and how to reach it
 * @param timeout the limit for one judge call (default {@link ModelOptions#DEFAULT_REQUEST_TIMEOUT})
 */
public record JudgeConfig(String name, ModelOptions model, Duration timeout) {
    public JudgeConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(model, "model");
        timeout = timeout == null ? ModelOptions.DEFAULT_REQUEST_TIMEOUT : timeout;
    }

    /**
     * Builds the judge's chat model.
     *
     * @param env reads the API key from the variable the configuration names
     * @param log receives retry lines
     * @throws dev.assay.AssayException the model's configuration problem ({@code target.missing_api_key}...)
     */
    public JudgeModel connect(Function<String, String> env, Consumer<String> log) {
        return new JudgeModel(name, ChatModels.chatModel(model, env, log), model.baseUrl(), timeout);
    }
}
