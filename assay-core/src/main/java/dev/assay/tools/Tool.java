package dev.assay.tools;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool offered to a model. Implementations are thread-safe; all per-case state lives in the {@link Workspace} passed
 * to each call.
 */
public interface Tool {
    /** {@return the canonical name the model sees and checkers use} */
    String name();

    /** {@return one or two sentences telling the model what the tool does} */
    String description();

    /** {@return the JSON Schema (an object schema) of the arguments} */
    JsonNode parameters();

    /**
     * Runs the tool. Never throws for bad arguments or failed operations: those come back as a failed result.
     *
     * @param arguments the arguments object the model sent
     * @param workspace the case's workspace; every path is resolved inside it
     */
    ToolResult call(JsonNode arguments, Workspace workspace) throws InterruptedException;
}
