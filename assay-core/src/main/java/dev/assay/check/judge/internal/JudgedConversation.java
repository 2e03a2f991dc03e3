package dev.assay.check.judge.internal;

import dev.assay.Json;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.util.StringJoiner;

/**
 * What a judge grades in a conversation case (a simulated user talking with the agent): the whole conversation in
 * order, the user's and the agent's messages and every tool call with its result, as τ²-bench's NL-assertion judge
 * reads the whole trajectory; the final answer alone would hide what the agent did and told the user before it.
 */
public final class JudgedConversation {
    /** The task the judge is told the assistant had, in place of a prompt that a conversation case does not have. */
    public static final String TASK =
            "Help the user in a conversation, using tools where needed. The whole conversation, in"
                    + " order, with the assistant's tool calls and their results, is given below as the answer.";

    private JudgedConversation() {}

    /** {@return whether the transcript is a conversation with a simulated user} */
    public static boolean isConversation(Transcript transcript) {
        return transcript.events().stream().anyMatch(TranscriptEvent.UserTurn.class::isInstance);
    }

    /** {@return the conversation as text, one message or tool call per paragraph} */
    public static String text(Transcript transcript) {
        var lines = new StringJoiner("\n\n");
        String lastAgentText = null;
        for (TranscriptEvent event : transcript.events()) {
            if (event instanceof TranscriptEvent.UserTurn turn) {
                lines.add("user: " + turn.text());
            } else if (event instanceof TranscriptEvent.ModelTurn turn
                    && !turn.text().isBlank()) {
                lines.add("assistant: " + turn.text());
                lastAgentText = turn.text();
            } else if (event instanceof TranscriptEvent.ToolCall call) {
                lines.add("assistant calls " + call.tool() + " " + Json.write(call.arguments()));
            } else if (event instanceof TranscriptEvent.ToolOutput output) {
                lines.add(
                        output.ok()
                                ? "tool " + output.tool() + " returns: " + output.output()
                                : "tool " + output.tool() + " fails: "
                                        + (output.error() == null
                                                ? output.output()
                                                : output.error().message()));
            } else if (event instanceof TranscriptEvent.FinalAnswer answer
                    && !answer.text().equals(lastAgentText)) {
                // The final answer repeats the agent's last message, unless the agent gave it through a tool.
                lines.add("assistant: " + answer.text());
            } else if (event instanceof TranscriptEvent.SubjectError error) {
                lines.add("(the assistant failed: " + error.problem().message() + ")");
            }
        }
        return lines.toString();
    }
}
