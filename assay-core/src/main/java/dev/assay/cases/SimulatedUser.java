package dev.assay.cases;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.cases.internal.ReferenceFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * The user a conversation case is played with (its {@code user} field, kept as written in {@link Case#attributes()}): a
 * user model plays this person from the instructions, speaks first, and answers each reply of the system under test
 * until it writes the stop token or the turns run out. The loader reports every problem with {@link #read}; later
 * stages read a valid case with {@link #of}.
 *
 * @param instructions who the user is and what they want; never blank
 * @param maxTurns the most messages the user sends, at least 1 (default {@value #DEFAULT_MAX_TURNS})
 * @param model the user model as {@code --user-model} names one; null for the run's
 * @param stop the text that ends the conversation when a user message contains it (default {@value #DEFAULT_STOP},
 *     τ-bench's)
 */
public record SimulatedUser(String instructions, int maxTurns, String model, String stop) {
    public static final int DEFAULT_MAX_TURNS = 20;
    public static final String DEFAULT_STOP = "###STOP###";

    public SimulatedUser {
        Objects.requireNonNull(instructions, "instructions");
        if (maxTurns < 1) {
            throw new IllegalArgumentException("maxTurns must be >= 1, got " + maxTurns);
        }
        stop = stop == null || stop.isEmpty() ? DEFAULT_STOP : stop;
    }

    /** {@return the user of a case the loader accepted; empty for a case with a single prompt} */
    public static Optional<SimulatedUser> of(Case evalCase) {
        return Optional.ofNullable(read(evalCase.attributes(), (type, field, message, expected) -> {
            throw new AssayException(Problem.of(type, "case " + evalCase.id() + ": " + field + ": " + message));
        }));
    }

    /**
     * {@return the {@code user} field of one case entry, or null when absent or wrong, reported to {@code problems}}
     */
    public static SimulatedUser read(JsonNode caseNode, ReferenceFormat.Problems problems) {
        JsonNode user = caseNode.get("user");
        if (user == null || user.isNull()) {
            return null;
        }
        if (!user.isObject()) {
            problems.add(
                    "case.invalid_field",
                    "user",
                    "`user` is not an object",
                    "an object {instructions, max_turns?, model?, stop?}");
            return null;
        }
        boolean valid = true;
        JsonNode instructions = user.get("instructions");
        if (instructions == null
                || !instructions.isTextual()
                || instructions.textValue().isBlank()) {
            problems.add(
                    instructions == null ? "case.missing_field" : "case.invalid_field",
                    "user.instructions",
                    "`user.instructions` is missing or not a non-empty string",
                    "who the simulated user is and what they want, as text");
            valid = false;
        }
        JsonNode turns = user.get("max_turns");
        boolean turnsGiven = turns != null && !turns.isNull();
        if (turnsGiven && !(turns.isIntegralNumber() && turns.canConvertToInt() && turns.intValue() >= 1)) {
            problems.add(
                    "case.invalid_field",
                    "user.max_turns",
                    "`user.max_turns` is not a whole number >= 1",
                    "a whole number >= 1");
            valid = false;
        }
        for (String field : new String[] {"model", "stop"}) {
            JsonNode value = user.get(field);
            if (value != null
                    && !value.isNull()
                    && !(value.isTextual() && !value.textValue().isBlank())) {
                problems.add(
                        "case.invalid_field",
                        "user." + field,
                        "`user." + field + "` is not a non-empty string",
                        field.equals("model")
                                ? "a model such as openai:gpt-4o-mini"
                                : "the text that ends the conversation");
                valid = false;
            }
        }
        if (!valid) {
            return null;
        }
        return new SimulatedUser(
                instructions.textValue(),
                turnsGiven ? turns.intValue() : DEFAULT_MAX_TURNS,
                user.hasNonNull("model") ? user.get("model").textValue().strip() : null,
                user.hasNonNull("stop") ? user.get("stop").textValue() : null);
    }
}
