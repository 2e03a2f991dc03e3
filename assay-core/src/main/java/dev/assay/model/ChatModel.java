package dev.assay.model;

/**
 * A chat model behind some API (OpenAI-compatible, Anthropic, the offline mock). Assay's agent loop and the dialog
 * replay both talk to models only through this. Implementations are thread-safe and do their own bounded retries of
 * transient failures.
 */
public interface ChatModel extends AutoCloseable {
    /** {@return the model as users name it, e.g. {@code openai:gpt-4o-mini} or {@code mock}} */
    String name();

    /**
     * Sends one request.
     *
     * @throws dev.assay.AssayException with a {@code target.*} problem (timeout, http_error, rate_limited, connection,
     *     malformed_response) once retries are exhausted
     */
    ModelResponse complete(ModelRequest request) throws InterruptedException;

    /**
     * {@return where the model is reached, without credentials ({@code https://api.openai.com/v1}); part of what tells
     * kept answers apart ({@link ResponseCache}), empty for a model that calls nothing}
     */
    default String endpoint() {
        return "";
    }

    /** Releases connections; the model is not used afterwards. Does nothing by default. */
    @Override
    default void close() {}
}
