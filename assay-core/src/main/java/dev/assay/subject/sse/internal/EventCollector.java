package dev.assay.subject.sse.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.subject.sse.EventMapping;
import dev.assay.tools.ToolNames;
import dev.assay.tools.Workspace;
import dev.assay.transcript.TranscriptBuilder;
import dev.assay.transcript.TranscriptEvent;
import dev.assay.transcript.Usage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Maps one agent stream's events into a transcript as they arrive, and hands every event's payload to a listener
 * (dialog replay reads events the transcript has no place for). Belongs to one stream and one reading thread; the
 * {@link TranscriptBuilder} it fills is what other threads read.
 */
final class EventCollector {
    private final EventMapping mapping;
    private final TranscriptBuilder transcript;
    private final Workspace workspace;
    private final BiConsumer<String, JsonNode> listener;
    private final StringBuilder deltas = new StringBuilder();
    private final StringBuilder reasoningDeltas = new StringBuilder();
    private final Set<String> seenIds = new HashSet<>();
    private final List<TranscriptEvent.ToolCall> unanswered = new ArrayList<>();
    private int generatedIds;

    /**
     * @param workspace where files of the {@code final} event are written; null to ignore them
     * @param listener receives each event's name and payload, whatever its kind, before it is mapped
     */
    EventCollector(
            EventMapping mapping,
            TranscriptBuilder transcript,
            Workspace workspace,
            BiConsumer<String, JsonNode> listener) {
        this.mapping = mapping;
        this.transcript = transcript;
        this.workspace = workspace;
        this.listener = listener;
    }

    /** Records one event; {@return true when it ends the case (a final answer or an error)} */
    boolean accept(SseEvent event) {
        // The reference server numbers its events so that a replayed overflow cannot be counted twice (§3.2).
        if (!event.id().isEmpty() && !seenIds.add(event.event() + "#" + event.id())) {
            return false;
        }
        String kind = mapping.kindOf(event.event());
        JsonNode parsed;
        try {
            parsed = Json.MAPPER.readTree(event.data());
        } catch (IOException | RuntimeException e) {
            if (kind == null) {
                // Events Assay does not map may carry anything, e.g. plain-text progress.
                return false;
            }
            transcript.add(new TranscriptEvent.SubjectError(
                    Instant.now(),
                    Problem.of("target.malformed_event", "the " + event.event() + " event's data is not JSON")
                            .withDetail("event", event.event())
                            .withDetail("id", event.id())));
            return true;
        }
        JsonNode root = parsed != null && parsed.isObject() ? parsed : Json.object();
        JsonNode located = mapping.at(root, "payload");
        // The listener gets the payload whatever its JSON type (a list of recalled items, say); mapping needs an
        // object.
        listener.accept(
                event.event(),
                !located.isMissingNode() ? located : parsed == null || parsed.isObject() ? root : parsed);
        JsonNode payload = located.isObject() ? located : root;
        if (kind == null) {
            return false;
        }
        Instant at = timestamp(mapping.at(root, "timestamp"));
        switch (kind) {
            case "llm_output_delta" -> {
                deltas.append(text(mapping.at(payload, "llm_output_delta.delta")));
                reasoningDeltas.append(text(mapping.at(payload, "llm_output_delta.reasoning")));
            }
            case "llm_output" -> modelTurn(at, payload);
            case "tool_call" -> toolCall(at, payload);
            case "tool_result" -> toolResult(at, payload);
            case "final" -> {
                flushDeltas(at);
                writeFiles(at, mapping.at(payload, "final.files"));
                transcript.add(new TranscriptEvent.FinalAnswer(at, text(mapping.at(payload, "final.answer"))));
                return true;
            }
            case "error" -> {
                flushDeltas(at);
                transcript.add(new TranscriptEvent.SubjectError(at, errorProblem(payload)));
                return true;
            }
            default -> throw new IllegalStateException("unmapped event kind " + kind);
        }
        return false;
    }

    /** Keeps text streamed as deltas that no complete {@code llm_output} followed. */
    void finish() {
        flushDeltas(Instant.now());
    }

    private void modelTurn(Instant at, JsonNode payload) {
        String content = text(mapping.at(payload, "llm_output.content"));
        String reasoning = text(mapping.at(payload, "llm_output.reasoning"));
        // A service that streams deltas may send the complete text again, or only the usage, at the end.
        String text = content.isEmpty() ? deltas.toString() : content;
        String thought = reasoning.isEmpty() ? reasoningDeltas.toString() : reasoning;
        deltas.setLength(0);
        reasoningDeltas.setLength(0);
        transcript.add(
                new TranscriptEvent.ModelTurn(at, text, thought, usage(mapping.at(payload, "llm_output.usage"))));
    }

    private void flushDeltas(Instant at) {
        if (!deltas.isEmpty() || !reasoningDeltas.isEmpty()) {
            transcript.add(
                    new TranscriptEvent.ModelTurn(at, deltas.toString(), reasoningDeltas.toString(), Usage.NONE));
            deltas.setLength(0);
            reasoningDeltas.setLength(0);
        }
    }

    private void toolCall(Instant at, JsonNode payload) {
        flushDeltas(at);
        String rawName = text(mapping.at(payload, "tool_call.tool"));
        String id = text(mapping.at(payload, "tool_call.id"));
        JsonNode args = mapping.at(payload, "tool_call.args");
        JsonNode arguments = args.isObject()
                ? args
                : args.isMissingNode() || args.isNull()
                        ? Json.object()
                        : Json.object().set("raw", args);
        var call = new TranscriptEvent.ToolCall(
                at, id.isEmpty() ? "call_" + ++generatedIds : id, ToolNames.canonical(rawName), rawName, arguments);
        unanswered.add(call);
        transcript.add(call);
    }

    private void toolResult(Instant at, JsonNode payload) {
        String tool = ToolNames.canonical(text(mapping.at(payload, "tool_result.tool")));
        String id = text(mapping.at(payload, "tool_result.id"));
        if (id.isEmpty()) {
            // Without ids the reference answers calls in order: pair with the oldest open call of that tool.
            id = unanswered.stream()
                    .filter(call -> call.tool().equals(tool))
                    .findFirst()
                    .map(TranscriptEvent.ToolCall::callId)
                    .orElse("call_" + ++generatedIds);
        }
        String callId = id;
        unanswered.removeIf(call -> call.callId().equals(callId));
        JsonNode error = mapping.at(payload, "tool_result.error");
        boolean hasError =
                !error.isMissingNode() && !error.isNull() && !text(error).isEmpty();
        JsonNode okNode = mapping.at(payload, "tool_result.ok");
        boolean ok = okNode.isBoolean() ? okNode.booleanValue() : !hasError;
        Problem problem = ok
                ? null
                : Problem.of("tool.failed", hasError ? text(error) : "the tool failed")
                        .withDetail("tool", tool);
        transcript.add(new TranscriptEvent.ToolOutput(
                at, callId, tool, ok, text(mapping.at(payload, "tool_result.output")), problem));
    }

    private Problem errorProblem(JsonNode payload) {
        String code = text(mapping.at(payload, "error.code"));
        String message = text(mapping.at(payload, "error.message"));
        Problem problem = Problem.of("target.agent_error", message.isEmpty() ? "the agent reported an error" : message)
                .withDetail("code", code);
        JsonNode detail = mapping.at(payload, "error.detail");
        return detail.isMissingNode() || detail.isNull() ? problem : problem.withDetail("detail", text(detail));
    }

    /** Files the agent returns are written into the case workspace so that file checkers find them. */
    private void writeFiles(Instant at, JsonNode files) {
        if (workspace == null || !files.isObject()) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = files.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> file = it.next();
            try {
                Path path = workspace.resolve(file.getKey());
                Files.createDirectories(path.getParent());
                Files.writeString(path, text(file.getValue()), StandardCharsets.UTF_8);
            } catch (AssayException e) {
                transcript.add(new TranscriptEvent.SubjectError(at, e.problem()));
            } catch (IOException e) {
                transcript.add(new TranscriptEvent.SubjectError(
                        at,
                        Problem.of(
                                "workspace.write_failed",
                                "could not write the returned file " + file.getKey() + ": " + e.getMessage())));
            }
        }
    }

    private static Usage usage(JsonNode node) {
        if (!node.isObject()) {
            return Usage.NONE;
        }
        long input = node.path("input_tokens").asLong(node.path("prompt_tokens").asLong(0));
        long output =
                node.path("output_tokens").asLong(node.path("completion_tokens").asLong(0));
        return new Usage(input, output);
    }

    private static Instant timestamp(JsonNode node) {
        if (node.isTextual()) {
            try {
                return OffsetDateTime.parse(node.asText()).toInstant();
            } catch (RuntimeException notRfc3339) {
                return Instant.now();
            }
        }
        return Instant.now();
    }

    /** Text fields may arrive as strings or as any JSON; missing and null read as empty. */
    private static String text(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return "";
        }
        return node.isValueNode() ? node.asText() : Json.write(node);
    }
}
