package dev.assay.dialog;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.model.ChatMessage;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.ResponseCache;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Replays a dialog against a chat model whose only memory is the conversation: each turn sends the system prompt (if
 * any), every earlier answered exchange and the new user message. The trace's {@code recall} reports that conversation
 * as short-term context ({@code "user: …\nassistant: …"} lines, as the reference agents write it), with no long-term
 * items and no profile, so M1 measures what the model was shown. A failed turn is not added to the conversation.
 * Thread-safe; sessions are per dialog.
 *
 * @param model the model
 * @param systemPrompt sent first in every request; empty for none
 * @param temperature sampling temperature; null for the provider's default
 * @param seed sampling seed; null for none
 */
public record ChatModelSubject(ChatModel model, String systemPrompt, Double temperature, Long seed)
        implements DialogSubject {
    public ChatModelSubject {
        Objects.requireNonNull(model, "model");
        systemPrompt = Objects.requireNonNullElse(systemPrompt, "");
    }

    @Override
    public String name() {
        return "chat:" + model.name();
    }

    @Override
    public Session open(String sessionId, String userId) {
        return open(sessionId, userId, ResponseCache.NONE);
    }

    /** Each turn's request carries the conversation so far, so the session tells the dialog's answers apart. */
    @Override
    public Session open(String sessionId, String userId, ResponseCache answers) {
        var history = new ArrayList<ChatMessage>();
        return (userText, timeout) -> {
            var messages = new ArrayList<ChatMessage>();
            if (!systemPrompt.isEmpty()) {
                messages.add(ChatMessage.system(systemPrompt));
            }
            ObjectNode recall;
            synchronized (history) {
                messages.addAll(history);
                recall = recall(userText, history);
            }
            messages.add(ChatMessage.user(userText));
            ModelResponse response = answers.complete(
                    model, sessionId, new ModelRequest(messages, List.of(), temperature, seed, null, timeout));
            synchronized (history) {
                // The replayer interrupts a call it gave up on (timeout); its late answer must not enter the memory.
                if (Thread.currentThread().isInterrupted()) {
                    throw AssayException.of("target.cancelled", "the turn was abandoned after its time limit");
                }
                history.add(ChatMessage.user(userText));
                history.add(ChatMessage.assistant(response.text(), List.of()));
            }
            return new TurnResponse(response.text(), recall, null, null, null);
        };
    }

    private static ObjectNode recall(String query, List<ChatMessage> history) {
        ObjectNode recall = JsonNodeFactory.instance.objectNode();
        recall.put("query", query);
        var context = new ArrayList<String>();
        ArrayNode turns = JsonNodeFactory.instance.arrayNode();
        for (ChatMessage message : history) {
            context.add(message.role().wireName() + ": " + message.content());
            turns.addObject().put("role", message.role().wireName()).put("content", message.content());
        }
        recall.put("short_term_context", String.join("\n", context));
        recall.set("short_term_turns", turns);
        recall.put("profile_context", "");
        recall.put("packed_context", "");
        recall.put("token_count", 0);
        recall.putArray("items");
        return recall;
    }
}
