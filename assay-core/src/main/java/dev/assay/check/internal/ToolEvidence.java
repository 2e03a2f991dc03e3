package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.tools.ToolNames;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent.ToolCall;
import dev.assay.transcript.TranscriptEvent.ToolOutput;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tool calls of a transcript as the tool checkers judge them: each with its canonical name and whether it succeeded
 * (from the {@link ToolOutput} with the same call id; unknown when there is none).
 *
 * @param call the call as recorded
 * @param name the canonical name ({@link ToolNames#canonical}, applied again in case a target recorded an alias)
 * @param ok true or false from the call's output; null when no output was recorded
 */
record ToolEvidence(ToolCall call, String name, Boolean ok) {

    static List<ToolEvidence> of(Transcript transcript) {
        Map<String, Boolean> outcomes = new HashMap<>();
        transcript.events().forEach(event -> {
            if (event instanceof ToolOutput output && output.callId() != null) {
                outcomes.put(output.callId(), output.ok());
            }
        });
        return transcript.toolCalls().stream()
                .map(call -> new ToolEvidence(
                        call,
                        ToolNames.canonical(call.tool()),
                        call.callId() == null ? null : outcomes.get(call.callId())))
                .toList();
    }

    /** {@return the call's arguments; a JSON object encoded as the {@code raw} string is decoded} */
    JsonNode arguments() {
        JsonNode args = call.arguments();
        if (args != null && args.size() == 1 && args.path("raw").isTextual()) {
            try {
                JsonNode decoded = Json.parse(args.get("raw").asText());
                if (decoded.isObject()) {
                    return decoded;
                }
            } catch (AssayException notJson) {
                return args;
            }
        }
        return args == null ? Json.object() : args;
    }

    ObjectNode describe() {
        ObjectNode node = Json.object();
        node.put("tool", name);
        node.put("raw_name", call.rawName());
        node.put("call_id", call.callId());
        node.put("ok", ok);
        return node;
    }
}
