package dev.assay.dialog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * What a target answered to one user turn, with the memory and checks it reports (copied into the trace).
 *
 * @param text the answer
 * @param recall the memory used ({@code short_term_context}, {@code items}, {@code profile_context}, ...); JSON null
 *     when the target reports none
 * @param tools tool calls as {@code {tool_name, args, result_excerpt, latency_ms, error}}; an empty array when none
 * @param compliance the target's own compliance check; JSON null when none
 * @param profileSnapshot the user profile the target holds after the turn; JSON null when none
 */
public record TurnResponse(
        String text, JsonNode recall, JsonNode tools, JsonNode compliance, JsonNode profileSnapshot) {
    public TurnResponse {
        text = Objects.requireNonNullElse(text, "");
        recall = recall == null ? NullNode.getInstance() : recall.deepCopy();
        tools = tools == null || !tools.isArray() ? JsonNodeFactory.instance.arrayNode() : tools.deepCopy();
        compliance = compliance == null ? NullNode.getInstance() : compliance.deepCopy();
        profileSnapshot = profileSnapshot == null ? NullNode.getInstance() : profileSnapshot.deepCopy();
    }
}
