package dev.assay.check;

import dev.assay.cases.Case;
import dev.assay.tools.Workspace;
import dev.assay.transcript.Transcript;

/**
 * What a checker may look at.
 *
 * @param evalCase    the case, with placeholders already filled
 * @param transcript  everything the target did
 * @param finalAnswer the cleaned final answer ({@link Transcript#finalAnswer()})
 * @param workspace   the case's workspace, for file checkers; the agent's shared directory for agent targets
 */
public record CheckContext(Case evalCase, Transcript transcript, String finalAnswer, Workspace workspace) {
    public static CheckContext of(Case evalCase, Transcript transcript, Workspace workspace) {
        return new CheckContext(evalCase, transcript, transcript.finalAnswer(), workspace);
    }
}
