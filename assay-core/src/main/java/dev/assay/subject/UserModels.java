package dev.assay.subject;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.cases.SimulatedUser;
import dev.assay.model.ChatModel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The models that play conversation cases' simulated users: the case's {@code user.model}, else the run's user model
 * ({@code --user-model}), each opened once on first use and closed with the run. Thread-safe.
 */
public final class UserModels implements AutoCloseable {
    /** No user model and no way to open one: every conversation case is a target error ({@code user.no_model}). */
    public static final UserModels NONE = new UserModels(null, spec -> {
        throw new AssayException(noModel());
    });

    private final String runModel;
    private final Function<String, ChatModel> opener;
    private final Map<String, ChatModel> opened = new ConcurrentHashMap<>();

    /**
     * @param runModel the run's user model as {@code --user-model} names it; null when the run names none
     * @param opener opens a model from its name ({@code openai:gpt-4o-mini}) with the run's or the user model's base
     *     URL and key, retries and secret masking; throws {@link AssayException} for a model it cannot open
     */
    public UserModels(String runModel, Function<String, ChatModel> opener) {
        this.runModel = runModel == null || runModel.isBlank() ? null : runModel.strip();
        this.opener = opener;
    }

    /**
     * {@return the model that plays {@code user}}
     *
     * @throws AssayException {@code user.no_model} when neither the case nor the run names one, or the model's own
     *     problem ({@code config.invalid_model}, {@code target.missing_api_key})
     */
    ChatModel model(SimulatedUser user) {
        String name = user.model() != null ? user.model() : runModel;
        if (name == null) {
            throw new AssayException(noModel());
        }
        return opened.computeIfAbsent(name, opener);
    }

    private static Problem noModel() {
        return Problem.of(
                        "user.no_model",
                        "the case plays a conversation with a simulated user, and no user model is named: give "
                                + "--user-model MODEL (or user_model in assay.yaml, or the case's user.model)")
                .withDetail("field", "user_model");
    }

    @Override
    public void close() {
        opened.values().forEach(ChatModel::close);
        opened.clear();
    }
}
