package dev.assay.check.judge.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.Problem;

/**
 * The judge's reply, read robustly: a JSON object anywhere in the text (code fences and chatter around it are
 * tolerated), the score validated and clamped to the scale.
 */
public sealed interface JudgeAnswer {

    /**
     * A usable grade.
     *
     * @param raw the judge's score as given (for pass/fail: 1 or 0)
     * @param clamped the score limited to the scale
     * @param outOfScale whether the given score lay outside the scale
     * @param reasoning the judge's explanation; empty when it gave none
     */
    record Grade(double raw, double clamped, boolean outOfScale, String reasoning) implements JudgeAnswer {}

    /** A reply the checker cannot use, with why (type {@code judge.unparsable}). */
    record Unusable(Problem problem) implements JudgeAnswer {}

    static JudgeAnswer parse(String text, JudgeSpec spec) {
        JsonNode object = object(text);
        if (object == null) {
            return unusable("the judge's reply holds no JSON object");
        }
        String reasoning = firstText(object, "reasoning", "explanation", "rationale");
        if (spec.passFail()) {
            Boolean pass = pass(object);
            if (pass == null) {
                return unusable("the judge's reply has no boolean 'pass'");
            }
            double score = pass ? 1 : 0;
            return new Grade(score, score, false, reasoning);
        }
        JsonNode score = object.get("score");
        double value;
        if (score != null && score.isNumber()) {
            value = score.asDouble();
        } else if (score != null && score.isTextual()) {
            try {
                value = Double.parseDouble(score.asText().strip());
            } catch (NumberFormatException e) {
                return unusable("the judge's 'score' is not a number: " + score.asText());
            }
        } else {
            return unusable("the judge's reply has no numeric 'score'");
        }
        if (!Double.isFinite(value)) {
            return unusable("the judge's 'score' is not finite");
        }
        double clamped = Math.max(spec.min(), Math.min(spec.max(), value));
        return new Grade(value, clamped, clamped != value, reasoning);
    }

    private static Unusable unusable(String message) {
        return new Unusable(Problem.of("judge.unparsable", message));
    }

    /** Models wrap JSON in fences or prose; the outermost braces are taken, then each opening brace in turn. */
    private static JsonNode object(String text) {
        if (text == null) {
            return null;
        }
        int end = text.lastIndexOf('}');
        for (int start = text.indexOf('{'); start >= 0 && start < end; start = text.indexOf('{', start + 1)) {
            try {
                JsonNode node = Json.MAPPER.readTree(text.substring(start, end + 1));
                if (node != null && node.isObject()) {
                    return node;
                }
            } catch (java.io.IOException ignored) {
                // Not JSON from this brace on; try the next one.
            }
        }
        return null;
    }

    private static Boolean pass(JsonNode object) {
        JsonNode pass = object.get("pass");
        if (pass != null && pass.isBoolean()) {
            return pass.asBoolean();
        }
        String verdict = firstText(object, "pass", "verdict", "result").toLowerCase(java.util.Locale.ROOT);
        return switch (verdict) {
            case "pass", "passed", "true", "yes" -> true;
            case "fail", "failed", "false", "no" -> false;
            default -> null;
        };
    }

    private static String firstText(JsonNode object, String... names) {
        for (String name : names) {
            JsonNode value = object.get(name);
            if (value != null && value.isTextual()) {
                return value.asText();
            }
        }
        return "";
    }
}
