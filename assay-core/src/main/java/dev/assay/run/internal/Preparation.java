package dev.assay.run.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteLoad;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.judge.JudgeCache;
import dev.assay.check.judge.JudgeCheckerFactory;
import dev.assay.check.judge.JudgeModel;
import dev.assay.check.promptfoo.internal.PromptfooCheckerFactory;
import dev.assay.code.CodeGrader;
import dev.assay.code.internal.CodeCheckerFactory;
import dev.assay.run.EvalSpec;
import dev.assay.run.Prepared;
import dev.assay.run.RunConfig;
import dev.assay.run.RunPlan;
import dev.assay.run.RunPlugins;
import dev.assay.run.SubjectContext;
import dev.assay.sandbox.ContainerSpec;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.Sandboxes;
import dev.assay.subject.Subject;
import dev.assay.tools.Toolbox;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Turns a spec into a plan ({@link EvalSpec#prepare}): loads and selects the cases, builds this run's checkers and its
 * system under test, and records what it found in the spec. Nothing process-wide is changed: the checkers given are
 * left as they are.
 */
public final class Preparation {
    private Preparation() {}

    /** {@return whether {@code name} names one of Assay's own systems under test, which are not plug-ins} */
    public static boolean isBuiltin(String name) {
        return BuiltinSubjects.all().stream().anyMatch(builtin -> builtin.name().equals(name));
    }

    public static Prepared prepare(
            EvalSpec spec,
            String runId,
            Path workspaceRoot,
            CheckerRegistry checkers,
            Function<String, String> env,
            Consumer<String> log,
            Sandboxes.Finder sandboxes)
            throws InterruptedException {
        // The agent loop needs the sandbox (to offer execute_command or not) once the suite is read: it is looked for
        // meanwhile. Code checks need it before, and share the same search.
        if (!spec.scoring().allowUnsandboxedCode()
                && !(spec.subject().sut() instanceof EvalSpec.Model
                        || spec.subject().sut() instanceof EvalSpec.Models)) {
            return prepareWith(spec, runId, workspaceRoot, checkers, env, log, sandboxes);
        }
        Sandboxes.Finder search = Sandboxes.searching(sandboxes);
        try {
            return prepareWith(spec, runId, workspaceRoot, checkers, env, log, search);
        } catch (RuntimeException failed) {
            endSearch(search);
            throw failed;
        }
    }

    private static Prepared prepareWith(
            EvalSpec spec,
            String runId,
            Path workspaceRoot,
            CheckerRegistry checkers,
            Function<String, String> env,
            Consumer<String> log,
            Sandboxes.Finder sandboxes)
            throws InterruptedException {
        Sandbox codeSandbox = spec.scoring().allowUnsandboxedCode() ? Sandboxes.detect(true, sandboxes) : null;
        CheckerRegistry runCheckers = withJudges(
                checkers.with(
                        codeSandbox != null
                                ? new CodeCheckerFactory(codeSandbox, CodeGrader.Options.defaults())
                                : new CodeCheckerFactory(sandboxes)),
                spec.scoring(),
                env,
                log,
                sandboxes);
        EvalSpec.Dataset dataset = spec.dataset();
        var loader = new SuiteLoader(runCheckers);
        ObjectNode defaults = Json.object();
        if (dataset.environment() != null) {
            defaults.set("environment", dataset.environment());
        }
        if (dataset.container() != null) {
            defaults.set(ContainerSpec.FIELD, dataset.container());
        }
        if (!defaults.isEmpty()) {
            loader = loader.withCaseDefaults(defaults);
        }
        SuiteLoad load = dataset.mapping() == null
                ? loader.load(dataset.suites())
                : loader.load(dataset.suites(), dataset.mapping());
        load.notes().forEach(log);
        // A dataset's bad rows are reported and left out, and its other rows run.
        Suite loaded = load.suite(dataset.skipInvalid() || dataset.mapping() != null);
        Suite suite = dataset.selection().select(loaded);
        if (suite.cases().isEmpty()) {
            throw new AssayException(
                    Problem.of("suite.empty_selection", "no case matches the selection; " + whatItHolds(loaded))
                            .withDetail("field", "selection"));
        }
        boolean containerTrials =
                ContainerSpecs.prepare(suite, spec.subject().tools().containerEngine(), workspaceRoot);
        EvalSpec.Sut sut = spec.subject().sut();
        String argument = sut instanceof EvalSpec.Plugin plugin ? plugin.argument() : "";
        RunPlugins plugins = RunPlugins.discovered().withCheckers(runCheckers);
        var context = new SubjectContext(spec, plugins.toolProviders(), argument, env, log, sandboxes, containerTrials);
        Subject subject;
        try {
            subject = plugins.subjects().get(sut.factory(), "subject").create(context);
        } catch (InterruptedException | RuntimeException e) {
            closeAll(context.toolboxes());
            throw e;
        }
        Sandbox sandbox = context.sandbox();
        // As stored: the same JSON read back from its text (a long 7 is an int 7 then), so that the spec a run starts
        // with is equal to the one read back from its record.
        var toolSnapshots = new LinkedHashMap<String, JsonNode>();
        context.toolSnapshots().forEach((name, snapshot) -> toolSnapshots.put(name, asStored(snapshot)));
        var observed = new EvalSpec.Observed(
                asStored(subject.describe()),
                sandbox == null ? "unavailable" : sandbox.kind(),
                codeSandbox == null ? null : codeSandbox.kind(),
                toolSnapshots);
        return new Prepared(
                new RunPlan(suite, subject, new RunConfig(runId, workspaceRoot, spec.withObserved(observed)), plugins),
                load.problems(),
                sandbox,
                context.toolboxes());
    }

    /**
     * {@return the checkers with the spec's judge models}: the {@code judge} and {@code promptfoo} checkers of this run
     * grade with the judges its spec names, whichever front end started or resumed it; without judges, the checkers as
     * given (judge checks are skipped with {@code judge.not_configured})
     */
    private static CheckerRegistry withJudges(
            CheckerRegistry checkers,
            EvalSpec.Scoring scoring,
            Function<String, String> env,
            Consumer<String> log,
            Sandboxes.Finder sandboxes) {
        if (scoring.judges().isEmpty()) {
            return checkers;
        }
        List<JudgeModel> judges =
                scoring.judges().stream().map(judge -> judge.connect(env, log)).toList();
        // Inside a run the judges' answers are the run's (its database); the cache only says whether other runs' count.
        JudgeCache cache = scoring.judgeCache() ? JudgeCache.acrossRuns() : JudgeCache.disabled();
        return checkers.with(new JudgeCheckerFactory(judges, cache))
                .with(new PromptfooCheckerFactory(judges, cache, sandboxes));
    }

    /** {@return what a selection can choose among: the suite's dimensions and languages} */
    private static String whatItHolds(Suite suite) {
        Suite.Breakdown breakdown = suite.breakdown();
        return suite.cases().isEmpty()
                ? "the suite holds no case"
                : "the suite's " + suite.cases().size() + " case(s) are in the dimensions "
                        + String.join(", ", breakdown.casesByDimension().keySet()) + " and the languages "
                        + String.join(", ", breakdown.languages());
    }

    /**
     * Lets a sandbox search begun for a preparation that failed end first: a command exits at once with the failure,
     * and a probe cut off by the exit would leave its directory behind. What it found no longer matters.
     */
    private static void endSearch(Sandboxes.Finder finder) throws InterruptedException {
        try {
            finder.find();
        } catch (RuntimeException notNeeded) {
            // The preparation's own failure is the one reported.
        }
    }

    private static JsonNode asStored(JsonNode node) {
        return node == null ? null : Json.parse(Json.write(node));
    }

    private static void closeAll(List<Toolbox> toolboxes) {
        toolboxes.forEach(Toolbox::close);
    }
}
