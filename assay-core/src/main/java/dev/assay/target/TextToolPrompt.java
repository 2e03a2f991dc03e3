package dev.assay.target;

import dev.assay.Json;
import java.util.List;

/** The system prompt that teaches a model the text tool-call format. */
public final class TextToolPrompt {
    private TextToolPrompt() {
    }

    public static String systemPrompt(List<ToolSpec> tools, String language) {
        var text = new StringBuilder("You can call tools. To call one, write "
                + "<tool_call>{\"name\": \"TOOL\", \"arguments\": {...}}</tool_call>.\nTools:\n");
        for (ToolSpec tool : tools) {
            text.append("- ").append(tool.name()).append(": ").append(tool.description())
                    .append(" Parameters: ").append(Json.write(tool.parameters())).append('\n');
        }
        return text.toString();
    }
}
