package dev.assay.subject;

import dev.assay.cases.Case;
import dev.assay.cases.DeclaredTools;
import dev.assay.cases.SimulatedUser;
import java.util.Objects;

/**
 * What a system under test is given for one case: the task, never how it will be judged. The case's checks and their
 * expected values stay on the engine's side of this type, so no subject (and no agent service it forwards to) can read
 * the answers; the workspace files reach it through the session's workspace.
 *
 * @param caseId the case's id (agent services and recordings key their sessions by it)
 * @param language the case's language tag ({@code zh-CN}, {@code en-US}), for the system prompt
 * @param prompt the task, with placeholders filled
 * @param declaredTools the functions the case declares and what their calls return; empty for most cases
 * @param system the case's {@code system} field, the system prompt (a policy) the agent is given; empty for none
 * @param user the simulated user a conversation case is played with (instructions the user model gets, never the
 *     checks); null for a case with a single prompt
 */
public record SubjectInput(
        String caseId, String language, String prompt, DeclaredTools declaredTools, String system, SimulatedUser user) {
    public SubjectInput {
        Objects.requireNonNull(caseId, "caseId");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(declaredTools, "declaredTools");
        system = system == null ? "" : system;
    }

    /** {@return the input of a case (placeholders already filled)} */
    public static SubjectInput of(Case evalCase) {
        return new SubjectInput(
                evalCase.id(),
                evalCase.language(),
                evalCase.prompt(),
                DeclaredTools.of(evalCase),
                evalCase.attributes().path("system").asText(""),
                SimulatedUser.of(evalCase).orElse(null));
    }
}
