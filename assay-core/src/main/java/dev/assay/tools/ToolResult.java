package dev.assay.tools;

import dev.assay.Problem;

/**
 * What a tool call returned: output text for the model, or a problem. Tool failures are sent back to the model as
 * results (it may recover), never thrown.
 *
 * @param ok whether the tool did what was asked
 * @param output the text returned to the model (already capped by the tool); empty on failure
 * @param error why it failed; null when ok
 */
public record ToolResult(boolean ok, String output, Problem error) {
    public static ToolResult ok(String output) {
        return new ToolResult(true, output == null ? "" : output, null);
    }

    public static ToolResult failed(String type, String message) {
        return new ToolResult(false, "", Problem.of(type, message));
    }

    public static ToolResult failed(Problem problem) {
        return new ToolResult(false, "", problem);
    }

    /** {@return the text the model sees: the output, or "error: " and the message} */
    public String forModel() {
        return ok ? output : "error (" + error.type() + "): " + error.message();
    }
}
