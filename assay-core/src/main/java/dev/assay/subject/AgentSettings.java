package dev.assay.subject;

/**
 * How Assay's agent loop drives a model.
 *
 * @param toolMode native function calling or text {@code <tool_call>} blocks (default native)
 * @param maxSteps model calls per case at most (default 20); the loop stops there and the checkers judge what exists
 * @param temperature sampling temperature; null for the provider's default
 * @param seed sampling seed where supported; null for none
 * @param maxTokens output-token cap per call; null for the provider's default
 */
public record AgentSettings(ToolMode toolMode, int maxSteps, Double temperature, Long seed, Integer maxTokens) {
    public AgentSettings {
        toolMode = toolMode == null ? ToolMode.NATIVE : toolMode;
        if (maxSteps < 1) {
            throw new IllegalArgumentException("maxSteps must be >= 1");
        }
    }

    public static AgentSettings defaults() {
        return new AgentSettings(ToolMode.NATIVE, 20, null, null, null);
    }
}
