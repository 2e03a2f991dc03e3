package dev.assay.check;

import dev.assay.cases.Case;
import dev.assay.model.ResponseCache;
import dev.assay.score.Weights;
import dev.assay.tools.Workspace;
import dev.assay.tools.environment.TrialEnvironment;
import dev.assay.transcript.AnswerText;
import dev.assay.transcript.Transcript;
import java.time.Duration;
import java.util.List;

/**
 * What a checker may look at, and where a checker that asks a model (the judge) keeps its answers. Immutable.
 *
 * @param evalCase the case, with placeholders already filled
 * @param transcript everything the target did
 * @param finalAnswer the cleaned final answer ({@link Transcript#finalAnswer()})
 * @param workspace the case's workspace, for file checkers; the agent's shared directory for agent targets
 * @param responses the run's answers, where a checker's model calls are kept and found again as the system under test's
 *     are; {@link ResponseCache#NONE} outside a run
 * @param scope what tells this item's answers apart from another's: the case and sample ({@code case#2}); empty outside
 *     a run
 * @param scoring the run's scoring preset ({@code --scoring}); under {@link Weights.Scoring#REFERENCE} a checker whose
 *     reading docs/checkers.md says follows the reference there reads the answer as the reference server does;
 *     {@link Weights.Scoring#ASSAY} when null
 * @param subjectTime how long the system under test took to answer (its whole trial, model calls and tools); null when
 *     unknown (outside a run); what promptfoo's {@code latency} assertion judges
 * @param environment the trial's environment: its end state, and how to start a fresh one; null when the case names no
 *     environment
 * @param subjectCostUsd what the system under test's model calls cost, in US dollars, at the run's prices; null when
 *     unknown (outside a run, or a model the price table has no price for); what promptfoo's {@code cost} assertion
 *     judges
 */
public record CheckContext(
        Case evalCase,
        Transcript transcript,
        String finalAnswer,
        Workspace workspace,
        ResponseCache responses,
        String scope,
        Weights.Scoring scoring,
        Duration subjectTime,
        TrialEnvironment environment,
        Double subjectCostUsd) {
    public CheckContext {
        responses = responses == null ? ResponseCache.NONE : responses;
        scope = scope == null ? "" : scope;
        scoring = scoring == null ? Weights.Scoring.ASSAY : scoring;
    }

    /** A context without an environment. */
    public CheckContext(
            Case evalCase,
            Transcript transcript,
            String finalAnswer,
            Workspace workspace,
            ResponseCache responses,
            String scope,
            Weights.Scoring scoring,
            Duration subjectTime) {
        this(evalCase, transcript, finalAnswer, workspace, responses, scope, scoring, subjectTime, null, null);
    }

    /** A context whose system under test's time is unknown. */
    public CheckContext(
            Case evalCase,
            Transcript transcript,
            String finalAnswer,
            Workspace workspace,
            ResponseCache responses,
            String scope,
            Weights.Scoring scoring) {
        this(evalCase, transcript, finalAnswer, workspace, responses, scope, scoring, null);
    }

    /** A context under Assay's own scoring. */
    public CheckContext(
            Case evalCase,
            Transcript transcript,
            String finalAnswer,
            Workspace workspace,
            ResponseCache responses,
            String scope) {
        this(evalCase, transcript, finalAnswer, workspace, responses, scope, Weights.Scoring.ASSAY);
    }

    /** A context outside a run: no answers kept. */
    public CheckContext(Case evalCase, Transcript transcript, String finalAnswer, Workspace workspace) {
        this(evalCase, transcript, finalAnswer, workspace, ResponseCache.NONE, "");
    }

    public static CheckContext of(Case evalCase, Transcript transcript, Workspace workspace) {
        return new CheckContext(evalCase, transcript, transcript.finalAnswer(), workspace);
    }

    /**
     * {@return the context of a run's item: its answers kept in {@code responses} under {@code scope}, judged under the
     * run's scoring preset}
     */
    public static CheckContext of(
            Case evalCase,
            Transcript transcript,
            Workspace workspace,
            ResponseCache responses,
            String scope,
            Weights.Scoring scoring) {
        return new CheckContext(evalCase, transcript, transcript.finalAnswer(), workspace, responses, scope, scoring);
    }

    /** {@return this context with the time the system under test took to answer} */
    public CheckContext withSubjectTime(Duration time) {
        return new CheckContext(
                evalCase,
                transcript,
                finalAnswer,
                workspace,
                responses,
                scope,
                scoring,
                time,
                environment,
                subjectCostUsd);
    }

    /** {@return this context with the trial's environment} */
    public CheckContext withEnvironment(TrialEnvironment trialEnvironment) {
        return new CheckContext(
                evalCase,
                transcript,
                finalAnswer,
                workspace,
                responses,
                scope,
                scoring,
                subjectTime,
                trialEnvironment,
                subjectCostUsd);
    }

    /** {@return this context with what the system under test's model calls cost, in US dollars; null when unknown} */
    public CheckContext withSubjectCost(Double usd) {
        return new CheckContext(
                evalCase, transcript, finalAnswer, workspace, responses, scope, scoring, subjectTime, environment, usd);
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
