package dev.assay.subject.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolSpec;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The system prompt of text tool mode: it lists the tools and teaches the exact wire format that {@link TextToolCalls}
 * reads, in English or in Chinese. Thread-safe.
 */
public final class TextToolPrompt {
    private TextToolPrompt() {}

    /** The sentences of the prompt in one language; the layout is shared. */
    private record Wording(
            String intro,
            String formatRules,
            String finalWithTool,
            String finalAsText,
            String toolsHeading,
            String parametersLabel) {}

    private static final Wording ENGLISH = new Wording(
            "You can use tools to complete the task. To call a tool, write a <tool_call> block containing one JSON "
                    + "object with the tool's name and its arguments, exactly like this:",
            """
                    Rules:
                    - Use only the tool names listed below, and give "arguments" as a JSON object that follows the \
                    tool's parameter schema.
                    - Write valid JSON: double quotes around keys and strings, and line breaks inside strings \
                    written as \\n.
                    - You may write several <tool_call> blocks in one message; they are run in order.
                    - The results of your calls are sent back to you in the next message; wait for them before \
                    relying on them.""",
            "- When the task is done, call %s with your complete answer.",
            "- When the task is done, reply with your final answer as plain text, without any <tool_call> block.",
            "Available tools:",
            "Parameters (JSON Schema): ");

    private static final Wording CHINESE = new Wording(
            "你可以使用工具来完成任务。调用工具时，请写一个 <tool_call> 块，块内放一个 JSON 对象，包含工具名称和参数，格式必须与下例完全一致：",
            """
                    规则：
                    - 只使用下面列出的工具名称；"arguments" 必须是符合该工具参数 schema 的 JSON 对象。
                    - 请写合法的 JSON：键和字符串使用双引号，字符串中的换行写作 \\n。
                    - 一条消息中可以写多个 <tool_call> 块，它们会按顺序执行。
                    - 工具调用的结果会在下一条消息中返回给你；请等结果返回后再依据结果继续。""",
            "- 任务完成后，调用 %s 并给出完整的最终答案。",
            "- 任务完成后，直接用纯文本给出最终答案，不要包含任何 <tool_call> 块。",
            "可用工具：",
            "参数（JSON Schema）：");

    /**
     * Builds the system prompt.
     *
     * @param tools the tools offered, in the order to list them; at least one
     * @param language a language tag such as {@code zh-CN} or {@code en}; any {@code zh} tag gives Chinese, everything
     *     else (null included) English
     * @throws IllegalArgumentException when no tool is given (text mode without tools needs no prompt)
     */
    public static String systemPrompt(List<ToolSpec> tools, String language) {
        if (tools == null || tools.isEmpty()) {
            throw new IllegalArgumentException("text tool mode needs at least one tool");
        }
        Wording wording = language != null && language.toLowerCase(Locale.ROOT).startsWith("zh") ? CHINESE : ENGLISH;
        var prompt = new StringBuilder();
        prompt.append(wording.intro())
                .append("\n\n")
                .append("<tool_call>\n")
                .append(exampleCall(tools.getFirst()))
                .append("\n</tool_call>\n\n")
                .append(wording.formatRules())
                .append('\n');
        Optional<ToolSpec> finalAnswer = tools.stream()
                .filter(tool -> ToolNames.FINAL_ANSWER.equals(ToolNames.canonical(tool.name())))
                .findFirst();
        prompt.append(finalAnswer
                        .map(tool -> wording.finalWithTool().formatted(tool.name()))
                        .orElse(wording.finalAsText()))
                .append("\n\n");
        prompt.append(wording.toolsHeading()).append('\n');
        for (ToolSpec tool : tools) {
            prompt.append("\n## ")
                    .append(tool.name())
                    .append('\n')
                    .append(tool.description())
                    .append('\n')
                    .append(wording.parametersLabel())
                    .append(Json.write(tool.parameters()))
                    .append('\n');
        }
        return prompt.toString();
    }

    /** A call of the first tool with a placeholder for each required argument, matching its type. */
    private static String exampleCall(ToolSpec tool) {
        ObjectNode arguments = JsonNodeFactory.instance.objectNode();
        JsonNode schema = tool.parameters() == null ? JsonNodeFactory.instance.objectNode() : tool.parameters();
        for (JsonNode required : schema.path("required")) {
            String name = required.asText();
            switch (schema.path("properties").path(name).path("type").asText("string")) {
                case "integer", "number" -> arguments.put(name, 1);
                case "boolean" -> arguments.put(name, true);
                case "object" -> arguments.putObject(name);
                case "array" -> arguments.putArray(name);
                default -> arguments.put(name, "...");
            }
        }
        ObjectNode call = JsonNodeFactory.instance.objectNode().put("name", tool.name());
        call.set("arguments", arguments);
        return Json.write(call);
    }
}
