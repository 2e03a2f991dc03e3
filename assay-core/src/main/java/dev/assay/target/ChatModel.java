package dev.assay.target;

/**
 * A chat-completion model. Implementations are thread-safe; one call is one request.
 */
public interface ChatModel {

    /** {@return the model's name as the user gave it} */
    String name();

    /** Sends one request and {@return the model's reply}; failures are thrown as {@link dev.assay.AssayException}. */
    ModelResponse complete(ModelRequest request);
}
