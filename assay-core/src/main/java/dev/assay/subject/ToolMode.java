package dev.assay.subject;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * How tools reach a model: through the API's function calling, or described in text with {@code <tool_call>} replies.
 */
public enum ToolMode {
    /** Tools are sent as function definitions; the model answers with structured tool calls. */
    NATIVE,
    /**
     * Tools are described in the system prompt; the model writes {@code <tool_call>{"name":...,
     * "arguments":...}</tool_call>}.
     */
    TEXT;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ToolMode parse(String value) {
        return valueOf(value.strip().toUpperCase(Locale.ROOT));
    }
}
