package dev.assay.code.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.Verdict;
import dev.assay.code.CaseResult;
import dev.assay.code.CodeGrader;
import dev.assay.code.CodeQuestion;
import dev.assay.code.Grade;
import dev.assay.sandbox.Sandbox;
import dev.assay.transcript.AnswerText;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code code} checker: grades the code in the model's answer against the case's code question. The verdict's score
 * is the pass ratio; its detail holds the per-test results, the strict {@code all_passed} flag and the sandbox kind.
 * The code runs in the trial's container when the case names an image, else in the run's sandbox (bubblewrap).
 * Thread-safe.
 */
final class CodeChecker implements Checker {
    private final Supplier<Sandbox> sandbox;
    private final CodeGrader.Options options;
    private final JsonNode graderOptions;

    CodeChecker(Supplier<Sandbox> sandbox, CodeGrader.Options options, JsonNode graderOptions) {
        this.sandbox = sandbox;
        this.options = options;
        this.graderOptions = graderOptions;
    }

    @Override
    public Verdict check(CheckContext context) throws InterruptedException {
        CodeQuestion question;
        Sandbox chosen;
        try {
            question = CodeQuestion.of(context.evalCase(), graderOptions);
            // A case that names an image runs its code in the trial's container, with the image's runtimes.
            Optional<Sandbox> trial = context.workspace() == null
                    ? Optional.empty()
                    : context.workspace().sandbox();
            chosen = trial.isPresent() ? trial.get() : sandbox.get();
        } catch (AssayException e) {
            return Verdict.error(e.problem());
        }
        String raw = context.transcript().rawFinalText();
        // Raw text, not the cleaned answer: trimming would break a completion's first-line indentation.
        String answer = raw == null || raw.isBlank()
                ? context.finalAnswer()
                : raw.contains("<think") ? AnswerText.stripThinking(raw) : raw;
        return verdict(new CodeGrader(chosen, options).grade(question, answer));
    }

    static Verdict verdict(Grade grade) {
        ObjectNode detail = detail(grade);
        if (grade.problem() != null) {
            return new Verdict(
                    Verdict.Status.ERROR,
                    0,
                    grade.problem().type(),
                    grade.problem().message(),
                    detail);
        }
        if (grade.allPassed()) {
            return Verdict.passed(detail);
        }
        String firstFailure = grade.cases().stream()
                .filter(c -> c.status() != CaseResult.Status.PASSED && c.status() != CaseResult.Status.UNSUPPORTED)
                .map(c -> c.status().wireName())
                .findFirst()
                .orElse("wrong_answer");
        String message = grade.passed() + " of " + grade.total() + " tests passed";
        return grade.passed() == 0
                ? Verdict.failed("code." + firstFailure, message, detail)
                : Verdict.partial(grade.score(), "code." + firstFailure, message, detail);
    }

    static ObjectNode detail(Grade grade) {
        ObjectNode detail = Json.object();
        detail.put("language", grade.language());
        detail.put("sandbox", grade.sandbox());
        detail.put("source", grade.source());
        if (grade.parse() != null) {
            detail.put("parse_status", grade.parse().status().wireName());
        }
        detail.set("compare", Json.tree(grade.comparison()));
        detail.put("passed", grade.passed());
        detail.put("total", grade.total());
        detail.put("all_passed", grade.allPassed());
        detail.set("cases", Json.tree(grade.cases()));
        return detail;
    }
}
