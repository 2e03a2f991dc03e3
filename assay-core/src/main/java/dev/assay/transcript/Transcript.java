package dev.assay.transcript;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.transcript.TranscriptEvent.FinalAnswer;
import dev.assay.transcript.TranscriptEvent.ModelTurn;
import dev.assay.transcript.TranscriptEvent.SubjectError;
import dev.assay.transcript.TranscriptEvent.ToolCall;
import java.util.List;
import java.util.Optional;

/**
 * Everything a target did on one case, in order. Immutable; targets build it with {@link TranscriptBuilder}.
 *
 * @param events the events in the order they happened
 */
public record Transcript(List<TranscriptEvent> events) {
    public static final Transcript EMPTY = new Transcript(List.of());
    private static final TypeReference<List<TranscriptEvent>> EVENTS = new TypeReference<>() {};
    // Made once: finding the writer of the event types is a tenth of the cost of writing a short transcript.
    private static final ObjectWriter EVENTS_WRITER = Json.MAPPER.writerFor(EVENTS);

    public Transcript {
        events = List.copyOf(events);
    }

    /** {@return every tool call, in order} */
    public List<ToolCall> toolCalls() {
        return events.stream()
                .filter(ToolCall.class::isInstance)
                .map(ToolCall.class::cast)
                .toList();
    }

    /** {@return the first target error, if the target failed} */
    public Optional<SubjectError> error() {
        return events.stream()
                .filter(SubjectError.class::isInstance)
                .map(SubjectError.class::cast)
                .findFirst();
    }

    /**
     * The final answer checkers judge: the text of the last {@link FinalAnswer} event, else the last model text; either
     * way cleaned by {@link AnswerText#finalAnswer(String)} (tool-call markup, think blocks and answer prefixes
     * removed).
     */
    public String finalAnswer() {
        return AnswerText.finalAnswer(rawFinalText());
    }

    /** {@return the final text before cleaning: what the model actually wrote last} */
    public String rawFinalText() {
        for (int i = events.size() - 1; i >= 0; i--) {
            if (events.get(i) instanceof FinalAnswer answer) {
                return answer.text();
            }
        }
        for (int i = events.size() - 1; i >= 0; i--) {
            if (events.get(i) instanceof ModelTurn turn && !turn.text().isBlank()) {
                return turn.text();
            }
        }
        return "";
    }

    /** {@return the summed token usage of all model turns} */
    public Usage usage() {
        return events.stream()
                .filter(ModelTurn.class::isInstance)
                .map(event -> ((ModelTurn) event).usage())
                .reduce(Usage.NONE, Usage::plus);
    }

    /** {@return the events as a JSON array, each with its stored {@code type} name} */
    public JsonNode toJson() {
        try {
            return Json.MAPPER.readTree(EVENTS_WRITER.writeValueAsString(events));
        } catch (JsonProcessingException e) {
            throw new AssayException(Problem.of("json.write", e.getOriginalMessage()), e);
        }
    }

    /**
     * {@return the transcript stored by {@link #toJson()}}
     *
     * @throws AssayException {@code transcript.invalid} when the JSON is not a list of events
     */
    public static Transcript fromJson(JsonNode json) {
        try {
            return new Transcript(Json.MAPPER.readerFor(EVENTS).readValue(json));
        } catch (java.io.IOException | IllegalArgumentException e) {
            throw new AssayException(Problem.of("transcript.invalid", "not a transcript: " + e.getMessage()), e);
        }
    }
}
