package dev.assay.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.code.CaseResult;
import dev.assay.code.CodeGrader;
import dev.assay.code.CodeQuestion;
import dev.assay.code.Example;
import dev.assay.code.Grade;
import dev.assay.code.ParsedExamples;
import dev.assay.code.QuestionFiles;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.Sandboxes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code assay code}: tools for code questions. Exit codes ({@link ExitCodes}): 0 all good, 1 some reference solution
 * failed its tests, 3 could not run (unreadable questions, no sandbox).
 */
@Command(
        name = "code",
        description = "Tools for code questions.",
        mixinStandardHelpOptions = true,
        subcommands = {CodeCommand.Extract.class, CodeCommand.Verify.class})
final class CodeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }

    static List<Case> read(List<Path> paths) {
        var cases = new ArrayList<Case>();
        for (Path path : paths) {
            cases.addAll(QuestionFiles.read(path));
        }
        return cases;
    }

    /** {@code assay code extract}: the tests parsed from each question's description. */
    @Command(
            name = "extract",
            mixinStandardHelpOptions = true,
            description = "Print the test cases parsed from each question's examples, with the parse status.")
    static final class Extract implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(
                paramLabel = "PATH",
                arity = "1..*",
                description = "Suite or case files (JSON, JSONL, YAML) or directories of them.")
        List<Path> paths;

        @Option(names = "--json", description = "Print one JSON object per question per line.")
        boolean json;

        @Override
        public Integer call() {
            List<Case> cases = read(paths);
            PrintWriter out = spec.commandLine().getOut();
            for (Case evalCase : cases) {
                ParsedExamples parsed = CodeQuestion.of(evalCase, null).examples();
                if (json) {
                    ObjectNode line = Json.object();
                    line.put("id", evalCase.id());
                    line.set("status", Json.tree(parsed.status()));
                    line.set("examples", Json.tree(parsed.examples()));
                    out.println(Json.write(line));
                } else {
                    out.printf(
                            "%s: %s (%d of %d examples parsed)%n",
                            evalCase.id(),
                            parsed.status().wireName(),
                            parsed.usable().size(),
                            parsed.examples().size());
                    for (Example example : parsed.examples()) {
                        if (example.status() == Example.Status.OK) {
                            out.printf(
                                    "  %s: input %s -> expected %s%n",
                                    example.label(), example.input(), example.expected());
                        } else {
                            out.printf("  %s: unsupported: %s%n", example.label(), example.reason());
                        }
                    }
                }
            }
            out.flush();
            return ExitCodes.OK;
        }
    }

    /** {@code assay code verify}: runs each question's reference solution against its tests. */
    @Command(
            name = "verify",
            mixinStandardHelpOptions = true,
            description = "Run each question's reference_solution against its tests in the sandbox.")
    static final class Verify implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(
                paramLabel = "PATH",
                arity = "1..*",
                description = "Suite or case files (JSON, JSONL, YAML) or directories of them.")
        List<Path> paths;

        @Option(
                names = "--allow-unsandboxed",
                description = "Run on the host when bubblewrap is not usable (untrusted code is then NOT confined).")
        boolean allowUnsandboxed;

        @Override
        public Integer call() throws InterruptedException {
            PrintWriter out = spec.commandLine().getOut();
            List<Case> cases = read(paths);
            Sandbox sandbox = Sandboxes.detect(allowUnsandboxed);
            var grader = new CodeGrader(sandbox, CodeGrader.Options.defaults());
            int failed = 0;
            for (Case evalCase : cases) {
                CodeQuestion question = CodeQuestion.of(evalCase, null);
                if (question.referenceSolution().isEmpty()) {
                    out.printf("%s: skipped (no reference_solution)%n", evalCase.id());
                    continue;
                }
                Grade grade = grader.gradeCode(question, question.referenceSolution());
                boolean ok = grade.allPassed();
                failed += ok ? 0 : 1;
                out.printf(
                        "%s: %s %d/%d (%s, sandbox %s)%s%n",
                        evalCase.id(),
                        ok ? "ok" : "FAILED",
                        grade.passed(),
                        grade.total(),
                        question.language(),
                        grade.sandbox(),
                        grade.problem() == null
                                ? ""
                                : " " + grade.problem().type() + ": "
                                        + grade.problem().message());
                for (CaseResult result : grade.cases()) {
                    if (result.status() != CaseResult.Status.PASSED) {
                        out.printf(
                                "  %s: %s %s %s%n",
                                result.label(), result.status().wireName(), result.actual(), result.message());
                    }
                }
            }
            out.flush();
            // A reference solution that fails its own tests is the code command's "threshold missed".
            return failed == 0 ? ExitCodes.OK : ExitCodes.THRESHOLD_MISSED;
        }
    }
}
