package dev.assay.model.openai.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.model.ModelResponse;
import dev.assay.model.RetryLoop;
import dev.assay.model.ToolCallRequest;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.transcript.Usage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;

/**
 * A streamed Chat Completions answer read line by line as it arrives (server-sent events) and folded into one answer:
 * text and reasoning deltas appended, tool calls assembled by their index, the finish reason and usage kept. The lines
 * come from one connection, one at a time; {@link #started()} may be asked from another thread.
 */
public final class StreamedAnswer {
    private final StringBuilder data = new StringBuilder();
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private final Map<Integer, PartialCall> calls = new TreeMap<>();
    private Usage usage = Usage.NONE;
    private String finishReason;
    private boolean done;
    private volatile boolean started;
    private RetryLoop.Failure failure;

    /** A tool call whose parts arrive over several events. */
    private static final class PartialCall {
        String id = "";
        String name = "";
        final StringBuilder arguments = new StringBuilder();
    }

    /** Takes the next line of the stream, without its line break. */
    public void line(String line) {
        if (line.isEmpty()) {
            dispatch();
        } else if (line.startsWith("data:")) {
            if (!data.isEmpty()) {
                data.append('\n');
            }
            data.append(line, line.startsWith("data: ") ? 6 : 5, line.length());
        }
        // Other fields (event:, id:, retry:) and comments (":") carry nothing an answer needs.
    }

    /** Takes the end of the stream. */
    public void end() {
        dispatch();
    }

    /** {@return whether any event arrived} */
    public boolean started() {
        return started;
    }

    private void dispatch() {
        if (data.isEmpty()) {
            return;
        }
        String event = data.toString();
        data.setLength(0);
        started = true;
        if (done || failure != null) {
            return;
        }
        if (event.strip().equals("[DONE]")) {
            done = true;
            return;
        }
        JsonNode chunk;
        try {
            chunk = Json.MAPPER.readTree(event);
        } catch (IOException e) {
            failure = RetryLoop.malformed(
                    "an event of the answer's stream is not JSON: " + OpenAiChatModel.unreadable(e));
            return;
        }
        if (chunk.path("error").isObject()) {
            failure = RetryLoop.malformed("the stream reported an error: "
                    + chunk.path("error")
                            .path("message")
                            .asText(chunk.path("error").toString()));
            return;
        }
        for (JsonNode choice : chunk.path("choices")) {
            if (choice.path("index").asInt(0) != 0) {
                continue;
            }
            JsonNode delta = choice.path("delta");
            append(text, delta.path("content"));
            append(reasoning, delta.path("reasoning_content"));
            for (JsonNode part : delta.path("tool_calls")) {
                PartialCall call =
                        calls.computeIfAbsent(part.path("index").asInt(calls.size()), i -> new PartialCall());
                if (part.path("id").isTextual() && call.id.isEmpty()) {
                    call.id = part.path("id").textValue();
                }
                JsonNode function = part.path("function");
                if (function.path("name").isTextual() && call.name.isEmpty()) {
                    call.name = function.path("name").textValue();
                }
                append(call.arguments, function.path("arguments"));
            }
            if (choice.path("finish_reason").isTextual()) {
                finishReason = choice.path("finish_reason").textValue();
            }
        }
        if (chunk.path("usage").isObject()) {
            usage = OpenAiChatModel.usage(chunk.path("usage"));
        }
    }

    private static void append(StringBuilder to, JsonNode piece) {
        if (piece.isTextual()) {
            to.append(piece.textValue());
        }
    }

    /**
     * {@return the folded answer, read when the stream has ended}
     *
     * @throws OpenAiChatModel.CallFailure for a stream without a single event (no event stream at all), one without a
     *     finish reason (closed mid-answer by the server or a proxy) or one that reported an error or held no JSON
     */
    public ModelResponse answer() {
        RetryLoop.Failure failed = failure != null
                ? failure
                : !started
                        ? RetryLoop.malformed("the answer's stream held no events")
                        : finishReason == null ? RetryLoop.truncated() : null;
        if (failed != null) {
            throw new OpenAiChatModel.CallFailure(failed);
        }
        var toolCalls = new ArrayList<ToolCallRequest>();
        calls.values()
                .forEach(call -> toolCalls.add(new ToolCallRequest(
                        call.id, call.name, OpenAiChatModel.parseArguments(call.arguments.toString()))));
        return new ModelResponse(text.toString(), reasoning.toString(), toolCalls, usage, finishReason);
    }
}
