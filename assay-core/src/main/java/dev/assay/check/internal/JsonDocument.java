package dev.assay.check.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.CheckContext;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the JSON checkers find the document they judge: a workspace file ({@code path} given) or the final answer,
 * whose first {@code ```json} fenced block is taken when it has one. Text that is not one whole JSON value fails with
 * {@code json.invalid}.
 *
 * @param path the workspace-relative file; null to judge the final answer
 */
record JsonDocument(String path) {
    private static final ObjectReader STRICT =
            Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final Pattern FENCE =
            Pattern.compile("(?s)```[ \\t]*(?:json|JSON|json5)?[ \\t]*\\R(.*?)\\R?[ \\t]*```");

    /** Reads the optional {@code path} field of an object-form expectation. */
    static JsonDocument from(Expected expected) {
        JsonNode path = expected.field("path");
        return new JsonDocument(path == null ? null : expected.text("path", path));
    }

    /** {@return what the detail calls the source: the path, or {@code "answer"}} */
    String source() {
        return path == null ? "answer" : path;
    }

    StepResult<JsonNode> read(CheckContext context) {
        if (path == null) {
            return parse(answerJson(context.finalAnswer() == null ? "" : context.finalAnswer()), "the answer");
        }
        return switch (WorkspaceFiles.readText(context.workspace(), path)) {
            case StepResult.Failed<String>(Problem problem) -> new StepResult.Failed<>(problem);
            case StepResult.Ok<String>(String text) -> parse(text, path);
        };
    }

    static String answerJson(String answer) {
        Matcher fence = FENCE.matcher(answer);
        return fence.find() ? fence.group(1) : answer;
    }

    private static StepResult<JsonNode> parse(String text, String where) {
        if (text.isBlank()) {
            return new StepResult.Failed<>(Problem.of("json.invalid", where + " is empty, not JSON"));
        }
        try {
            return new StepResult.Ok<>(STRICT.readTree(text));
        } catch (JsonProcessingException e) {
            return new StepResult.Failed<>(Problem.of(
                            "json.invalid", where + " is not valid JSON: " + e.getOriginalMessage())
                    .withDetail(
                            "line",
                            e.getLocation() == null ? null : e.getLocation().getLineNr()));
        }
    }
}
