package dev.assay.code;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.code.internal.AnswerCode;
import dev.assay.code.internal.CheckerCodeRun;
import dev.assay.code.internal.Comparison;
import dev.assay.code.internal.HarnessReport;
import dev.assay.code.internal.HarnessRun;
import dev.assay.code.internal.LanguageRunner;
import dev.assay.code.internal.PythonRunner;
import dev.assay.code.internal.SandboxedPython;
import dev.assay.code.internal.StdioExamples;
import dev.assay.code.internal.StdioRun;
import dev.assay.code.internal.TestCase;
import dev.assay.code.internal.TestCodeRun;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.SandboxLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Grades one program against a code question: chooses the tests (explicit {@code test_cases}, else HumanEval-style
 * {@code test_code}, else the description's examples, never invented ones), runs the program once in the sandbox
 * through the language's harness, and compares each output outside the sandbox. Thread-safe.
 */
public final class CodeGrader {
    private static final int SHOWN_CHARS = 500;

    private final Sandbox sandbox;
    private final Options options;

    /**
     * Grading limits.
     *
     * @param caseTimeout time limit of one test (default 4 s, EvalPlus's floor for slow machines)
     * @param memoryBytes address-space limit of the program (default 1 GiB)
     * @param maxProcesses task limit of the program, threads included (default 64)
     */
    public record Options(Duration caseTimeout, long memoryBytes, int maxProcesses) {
        public Options {
            Objects.requireNonNull(caseTimeout, "caseTimeout");
            if (caseTimeout.isNegative() || caseTimeout.isZero() || memoryBytes <= 0 || maxProcesses <= 0) {
                throw new IllegalArgumentException("grading limits must be positive");
            }
        }

        public static Options defaults() {
            return new Options(Duration.ofSeconds(4), 1L << 30, 64);
        }
    }

    public CodeGrader(Sandbox sandbox, Options options) {
        this.sandbox = Objects.requireNonNull(sandbox, "sandbox");
        this.options = Objects.requireNonNull(options, "options");
    }

    /** {@return the grade of the code in {@code answer} (fenced blocks, else the whole text)} */
    public Grade grade(CodeQuestion question, String answer) throws InterruptedException {
        String code = AnswerCode.extract(answer, question.language(), question.entryPoint());
        return gradeCode(question, code);
    }

    /** {@return the grade of {@code code} as it is (no extraction from an answer)} */
    public Grade gradeCode(CodeQuestion question, String code) throws InterruptedException {
        var runner = LanguageRunner.forLanguage(question.language(), sandbox);
        ParsedExamples parse = null;
        String source;
        List<TestCase> tests;
        var unsupported = new ArrayList<CaseResult>();
        if (!question.testCases().isEmpty()) {
            source = "test_cases";
            tests = question.testCases();
        } else if (!question.testCode().isEmpty()) {
            source = "test_code";
            tests = List.of(new TestCase("check", null, null, false));
        } else if (!StdioExamples.parse(question.description()).isEmpty()) {
            return gradeProgram(question, code, runner.isPresent(), StdioExamples.parse(question.description()));
        } else {
            source = "examples";
            parse = question.examples();
            tests = parse.usable().stream().map(TestCase::of).toList();
            for (Example example : parse.examples()) {
                if (example.status() == Example.Status.UNSUPPORTED) {
                    unsupported.add(new CaseResult(
                            example.label(), CaseResult.Status.UNSUPPORTED, null, null, null, example.reason()));
                }
            }
        }
        Comparison comparison = withChecker(
                question,
                Comparison.choose(
                        question.compare(),
                        question.description(),
                        tests.stream().map(TestCase::expected).toList()));
        if (comparison.mode() == Comparison.Mode.CHECKER
                && question.checkerCode().isEmpty()) {
            return refused(
                    question,
                    source,
                    parse,
                    comparison,
                    unsupported,
                    Problem.of("check.invalid_expected", "compare: checker needs the question's checker_code"));
        }
        if (runner.isEmpty()) {
            return refused(question, source, parse, comparison, unsupported, unsupported(question));
        }
        if (tests.isEmpty()) {
            String why = parse == null || parse.examples().isEmpty()
                    ? "the question has no test_cases and no examples in its description"
                    : "none of the description's examples could be parsed: "
                            + unsupported.stream()
                                    .map(c -> c.label() + ": " + c.message())
                                    .reduce((a, b) -> a + "; " + b)
                                    .orElse("");
            return refused(question, source, parse, comparison, unsupported, Problem.of("code.no_tests", why));
        }
        if (code.isBlank()) {
            var results = new ArrayList<CaseResult>(unsupported);
            for (TestCase test : tests) {
                results.add(result(test, CaseResult.Status.RUNTIME_ERROR, null, "the answer contains no code"));
            }
            return new Grade(question.language(), sandbox.kind(), source, parse, comparison, results, null);
        }
        if (comparison.mode() == Comparison.Mode.CUSTOM) {
            if (question.referenceSolution().isEmpty()) {
                return refused(
                        question,
                        source,
                        parse,
                        comparison,
                        unsupported,
                        Problem.of(
                                "check.invalid_expected",
                                "compare: custom needs a reference_solution to act as the oracle"));
            }
            tests = withOracle(runner.get(), question, tests);
        }
        List<HarnessReport> reports;
        if (source.equals("test_code")) {
            reports = List.of(TestCodeRun.execute(
                    sandbox,
                    question,
                    humanEvalProgram(question, code),
                    options.caseTimeout().toMillis() / 1000.0,
                    limits(1)));
        } else {
            reports = run(runner.get(), question, code, tests);
        }
        var results = new ArrayList<CaseResult>(unsupported);
        results.addAll(
                comparison.mode() == Comparison.Mode.CHECKER && !source.equals("test_code")
                        ? checked(question, tests, reports)
                        : judged(tests, reports, comparison));
        return new Grade(question.language(), sandbox.kind(), source, parse, comparison, results, null);
    }

    /** Why {@code question}'s language has no runner in this grader's sandbox. */
    private Problem unsupported(CodeQuestion question) {
        String message = question.language().equals("java") && !sandbox.hostSystem()
                ? "java code runs on the JDK Assay runs on, which a container's image does not have; in a container "
                        + "python and javascript run with the image's python3 and node"
                : "no runner for language '" + question.language() + "' (python, javascript and java are supported)";
        return Problem.of("code.unsupported_language", message);
    }

    private static Comparison withChecker(CodeQuestion question, Comparison comparison) {
        return question.checkerCode().isEmpty()
                ? comparison
                : new Comparison(Comparison.Mode.CHECKER, comparison.tolerance());
    }

    private static List<CaseResult> judged(List<TestCase> tests, List<HarnessReport> reports, Comparison comparison) {
        var results = new ArrayList<CaseResult>();
        for (int i = 0; i < tests.size(); i++) {
            results.add(judge(tests.get(i), reports.get(i), comparison));
        }
        return results;
    }

    /** The question's checker judges every output the program gave; the rest keep their status. */
    private List<CaseResult> checked(CodeQuestion question, List<TestCase> tests, List<HarnessReport> reports)
            throws InterruptedException {
        var given = new ArrayList<Integer>();
        var judged = new ArrayList<CheckerCodeRun.Judged>();
        for (int i = 0; i < tests.size(); i++) {
            if (reports.get(i).status().equals("ok")) {
                given.add(i);
                judged.add(new CheckerCodeRun.Judged(
                        tests.get(i).input(),
                        reports.get(i).actual(),
                        tests.get(i).expected()));
            }
        }
        List<CheckerCodeRun.Verdict> verdicts = judged.isEmpty()
                ? List.of()
                : CheckerCodeRun.judge(
                        sandbox,
                        question.checkerCode(),
                        judged,
                        options.caseTimeout().toMillis() / 1000.0,
                        limits(judged.size()));
        var results = new ArrayList<CaseResult>();
        for (int i = 0; i < tests.size(); i++) {
            int position = given.indexOf(i);
            if (position < 0) {
                results.add(judge(tests.get(i), reports.get(i), null));
                continue;
            }
            CheckerCodeRun.Verdict verdict = verdicts.get(position);
            CaseResult.Status status = verdict.failed()
                    ? CaseResult.Status.RUNTIME_ERROR
                    : verdict.accepted() ? CaseResult.Status.PASSED : CaseResult.Status.WRONG_ANSWER;
            results.add(result(tests.get(i), status, reports.get(i).actual(), verdict.message()));
        }
        return results;
    }

    /**
     * A program-style question (sample input and output): the whole program runs once per sample with the sample on
     * stdin, and what it prints is compared as text.
     */
    private Grade gradeProgram(
            CodeQuestion question, String code, boolean supported, List<StdioExamples.Sample> samples)
            throws InterruptedException {
        var tests = new ArrayList<TestCase>();
        for (StdioExamples.Sample sample : samples) {
            ObjectNode input = Json.object().put("stdin", sample.stdin());
            tests.add(new TestCase(sample.label(), input, TextNode.valueOf(sample.stdout()), false));
        }
        Comparison comparison =
                withChecker(question, Comparison.choose(question.compare(), question.description(), List.of()));
        if (!supported) {
            return refused(question, STDIO, null, comparison, List.of(), unsupported(question));
        }
        var results = new ArrayList<CaseResult>();
        if (code.isBlank()) {
            tests.forEach(test ->
                    results.add(result(test, CaseResult.Status.RUNTIME_ERROR, null, "the answer contains no code")));
            return new Grade(question.language(), sandbox.kind(), STDIO, null, comparison, results, null);
        }
        SandboxLimits base = limits(samples.size());
        // The JVM and V8 reserve far more address space than they use: their heap flags bound their memory.
        long addressSpace =
                question.language().equals("python") ? base.memoryBytes() : Math.max(base.memoryBytes(), 8L << 30);
        var programLimits = new SandboxLimits(
                base.wallTime().plusSeconds(30), addressSpace, base.maxProcesses(), base.maxOutputBytes());
        List<HarnessReport> reports = StdioRun.execute(
                sandbox,
                question.language(),
                code,
                samples,
                options.caseTimeout().toMillis() / 1000.0,
                options.memoryBytes(),
                programLimits);
        if (comparison.mode() == Comparison.Mode.CHECKER) {
            results.addAll(checked(question, tests, reports));
            return new Grade(question.language(), sandbox.kind(), STDIO, null, comparison, results, null);
        }
        for (int i = 0; i < tests.size(); i++) {
            TestCase test = tests.get(i);
            HarnessReport report = reports.get(i);
            if (report.status().equals("ok")) {
                boolean accepted = comparison.acceptsText(
                        test.expected().asText(), report.actual().asText());
                results.add(result(
                        test,
                        accepted ? CaseResult.Status.PASSED : CaseResult.Status.WRONG_ANSWER,
                        report.actual(),
                        ""));
            } else {
                results.add(judge(test, report, comparison));
            }
        }
        return new Grade(question.language(), sandbox.kind(), STDIO, null, comparison, results, null);
    }

    /** The source of tests for program-style questions: their sample input and output. */
    private static final String STDIO = "stdio";

    private Grade refused(
            CodeQuestion question,
            String source,
            ParsedExamples parse,
            Comparison comparison,
            List<CaseResult> unsupported,
            Problem problem) {
        return new Grade(question.language(), sandbox.kind(), source, parse, comparison, unsupported, problem);
    }

    /** Expected outputs computed by the reference solution; where it fails, the stated output stays. */
    private List<TestCase> withOracle(LanguageRunner runner, CodeQuestion question, List<TestCase> tests)
            throws InterruptedException {
        List<HarnessReport> reference = run(runner, question, question.referenceSolution(), tests);
        var oracle = new ArrayList<TestCase>();
        for (int i = 0; i < tests.size(); i++) {
            HarnessReport report = reference.get(i);
            oracle.add("ok".equals(report.status()) ? tests.get(i).withExpected(report.actual()) : tests.get(i));
        }
        return oracle;
    }

    private List<HarnessReport> run(LanguageRunner runner, CodeQuestion question, String program, List<TestCase> tests)
            throws InterruptedException {
        ObjectNode config = Json.object();
        config.put("entry_point", question.entryPoint());
        config.put("signature_source", signatures(runner, question));
        config.put("case_timeout", options.caseTimeout().toMillis() / 1000.0);
        ArrayNode cases = config.putArray("cases");
        for (TestCase test : tests) {
            cases.addObject().put("design", test.design()).set("input", test.input());
        }
        return HarnessRun.execute(sandbox, runner.plan(program, config, tests.size(), limits(tests.size())));
    }

    /**
     * {@return the signatures the harness binds the tests' arguments to}: the starter code, which the model was shown;
     * else, for Python, the only harness that reads them, the reference solution's signatures without its code. The
     * program under test runs in the harness's process and can read all of it: given the reference, it would return the
     * reference's answers.
     */
    private String signatures(LanguageRunner runner, CodeQuestion question) throws InterruptedException {
        if (!question.starterCode().isEmpty()) {
            return question.starterCode();
        }
        if (!(runner instanceof PythonRunner) || question.referenceSolution().isEmpty()) {
            return "";
        }
        return SandboxedPython.signatureSkeleton(
                sandbox, PythonRunner.interpreter(sandbox), question.referenceSolution());
    }

    /** The harness times each test; the wall clock is the backstop for a program that defeats its timer. */
    private SandboxLimits limits(int testCount) {
        Duration wall = options.caseTimeout().multipliedBy(testCount + 1L).plusSeconds(10);
        return new SandboxLimits(wall, options.memoryBytes(), options.maxProcesses(), 8L << 20);
    }

    private static CaseResult judge(TestCase test, HarnessReport report, Comparison comparison) {
        return switch (report.status()) {
            case "ok" ->
                comparison.accepts(test.expected(), report.actual())
                        ? result(test, CaseResult.Status.PASSED, report.actual(), "")
                        : result(test, CaseResult.Status.WRONG_ANSWER, report.actual(), "");
            case "passed" -> result(test, CaseResult.Status.PASSED, null, "");
            case "wrong_answer" -> result(test, CaseResult.Status.WRONG_ANSWER, null, report.message());
            case "timeout" -> result(test, CaseResult.Status.TIMEOUT, null, report.message());
            default -> result(test, CaseResult.Status.RUNTIME_ERROR, null, report.message());
        };
    }

    private static CaseResult result(TestCase test, CaseResult.Status status, JsonNode actual, String message) {
        boolean judgedInside = test.input().isEmpty() && test.expected().isNull();
        return new CaseResult(
                test.label(),
                status,
                judgedInside ? null : shown(test.input()),
                judgedInside ? null : shown(test.expected()),
                actual == null ? null : shown(actual),
                message);
    }

    /** Long values are shown as their first characters, as text, so a verdict stays small. */
    private static JsonNode shown(JsonNode value) {
        String text = value.toString();
        return text.length() <= SHOWN_CHARS ? value : TextNode.valueOf(text.substring(0, SHOWN_CHARS) + "...");
    }

    private static final Pattern DEFINES = Pattern.compile("(?m)^def\\s+(\\w+)\\s*\\(");

    /**
     * HumanEval: the prompt (imports, helpers, signature and docstring) followed by the completion; a completion that
     * restates the whole function simply redefines it.
     */
    private static String humanEvalProgram(CodeQuestion question, String code) {
        var matcher = DEFINES.matcher(code);
        boolean fullFunction = false;
        while (matcher.find()) {
            fullFunction |= matcher.group(1).equals(question.entryPoint());
        }
        return fullFunction ? question.description() + "\n    pass\n\n" + code : question.description() + code;
    }
}
