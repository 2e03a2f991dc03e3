package dev.assay.check;

import dev.assay.cases.Case;
import dev.assay.tools.Workspace;
import dev.assay.transcript.AnswerText;
import dev.assay.transcript.Transcript;
import java.util.List;

/**
 * What a checker may look at.
 *
 * @param evalCase the case, with placeholders already filled
 * @param transcript everything the target did
 * @param finalAnswer the cleaned final answer ({@link Transcript#finalAnswer()})
 * @param workspace the case's workspace, for file checkers; the agent's shared directory for agent targets
 */
public record CheckContext(Case evalCase, Transcript transcript, String finalAnswer, Workspace workspace) {
    public static CheckContext of(Case evalCase, Transcript transcript, Workspace workspace) {
        return new CheckContext(evalCase, transcript, transcript.finalAnswer(), workspace);
    }

    /**
     * {@return the readings of the final answer that {@code exact}, {@code contains} and {@code regex} accept, the
     * cleaned answer first}: when cleaning removed a leading label ({@code 答案：}), the answer with the label kept (tool
     * calls and thinking still removed) follows, so an expectation that spells the label out, like the reference's
     * {@code ^答案：B$}, is met as it is there (docs/checkers.md, difference A1)
     */
    public List<String> answerReadings() {
        String cleaned = finalAnswer == null ? "" : finalAnswer;
        if (transcript == null) {
            return List.of(cleaned);
        }
        String raw = transcript.rawFinalText();
        String labelled = AnswerText.withoutMarkup(raw);
        // A context built with an answer of its own (not the transcript's) has no labelled reading.
        boolean sameAnswer = AnswerText.finalAnswer(raw).equals(cleaned);
        return !sameAnswer || labelled.equals(cleaned) ? List.of(cleaned) : List.of(cleaned, labelled);
    }
}
