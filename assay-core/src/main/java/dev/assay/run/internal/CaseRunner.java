package dev.assay.run.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.internal.Placeholders;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.Verdict;
import dev.assay.internal.Deadlines;
import dev.assay.model.ResponseCache;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.ToolCallView;
import dev.assay.run.RunPlan;
import dev.assay.run.WorkspacePolicy;
import dev.assay.sandbox.ContainerTrial;
import dev.assay.sandbox.Sandboxes;
import dev.assay.score.Weights;
import dev.assay.subject.Session;
import dev.assay.subject.Subject;
import dev.assay.subject.SubjectInput;
import dev.assay.subject.TrialObserver;
import dev.assay.tools.McpServerState;
import dev.assay.tools.ToolNames;
import dev.assay.tools.Workspace;
import dev.assay.tools.environment.Environment;
import dev.assay.tools.environment.EnvironmentSpec;
import dev.assay.tools.environment.Environments;
import dev.assay.tools.environment.TrialEnvironment;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptBuilder;
import dev.assay.transcript.TranscriptEvent;
import dev.assay.transcript.Usage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** Runs and judges one case: workspace, prerequisites, the target under a deadline, the checks. Stateless. */
public final class CaseRunner {
    private final CheckerRegistry checkers;
    private final ExecutorService subjectThreads;
    private final ResponseCache responses;
    private final TrialObserver observer;

    /**
     * @param responses where the run's model answers are kept and found again
     * @param observer told of the case's model and tool calls
     */
    public CaseRunner(
            CheckerRegistry checkers, ExecutorService subjectThreads, ResponseCache responses, TrialObserver observer) {
        this.checkers = checkers;
        this.subjectThreads = subjectThreads;
        this.responses = responses;
        this.observer = observer;
    }

    /** @param cancelled checked after an interruption to tell cancellation from a timeout */
    public Item run(
            String runId,
            int seq,
            Case template,
            RunPlan plan,
            Map<String, String> placeholders,
            Path caseDirectory,
            Consumer<String> log,
            java.util.function.BooleanSupplier cancelled)
            throws InterruptedException {
        Instant started = now();
        try {
            return runCase(runId, seq, template, plan, placeholders, caseDirectory, log, cancelled, started);
        } catch (RuntimeException e) {
            // A bug, ours or a plug-in's, is this item's error: the run still accounts for every case it started.
            return item(
                    runId,
                    seq,
                    template,
                    ItemStatus.ERROR,
                    0,
                    Transcript.EMPTY,
                    "",
                    null,
                    Problem.of("run.internal_error", "the case failed inside the engine: " + e),
                    started);
        }
    }

    private Item runCase(
            String runId,
            int seq,
            Case template,
            RunPlan plan,
            Map<String, String> placeholders,
            Path caseDirectory,
            Consumer<String> log,
            BooleanSupplier cancelled,
            Instant started)
            throws InterruptedException {
        Case evalCase = template.withPlaceholders(placeholders);
        SubjectInput input = SubjectInput.of(evalCase);
        Subject subject = plan.subject().labelled(evalCase.subjectLabel());
        var offered = new LinkedHashSet<>(subject.toolNames(input));
        if (ContainerSpecs.of(evalCase).isEmpty()) {
            // A withheld tool is offered only to a trial with a sandbox of its own (its container).
            offered.removeAll(subject.withheldTools().keySet());
        }
        Set<String> missing = missingTools(checkers, evalCase, offered);
        Optional<Problem> withheld = missing.stream()
                .map(subject.withheldTools()::get)
                .filter(Objects::nonNull)
                .findFirst();
        if (withheld.isPresent()) {
            return item(
                    runId,
                    seq,
                    evalCase,
                    ItemStatus.SKIPPED,
                    0,
                    Transcript.EMPTY,
                    "",
                    null,
                    withheld.get().withDetail("missing_tools", List.copyOf(missing)),
                    started);
        }
        Optional<EnvironmentSpec> environmentSpec = environmentOf(evalCase);
        // An environment's tools are known once it has started: the case is judged for them then.
        if (!missing.isEmpty() && environmentSpec.isEmpty()) {
            return missingToolsItem(runId, seq, evalCase, plan, missing, started);
        }
        var unavailable = subject.unavailable(input);
        if (unavailable.isPresent()) {
            return item(
                    runId,
                    seq,
                    evalCase,
                    ItemStatus.SKIPPED,
                    0,
                    Transcript.EMPTY,
                    "",
                    null,
                    unavailable.get(),
                    started);
        }
        Workspace workspace;
        try {
            workspace = seed(caseDirectory, plan.suite().fixtures(), evalCase, placeholders);
        } catch (AssayException e) {
            return item(runId, seq, evalCase, ItemStatus.ERROR, 0, Transcript.EMPTY, "", null, e.problem(), started);
        }
        var spec = ContainerSpecs.of(evalCase);
        if (spec.isEmpty()) {
            return runIn(runId, seq, evalCase, input, subject, plan, workspace, log, cancelled, started);
        }
        // The trial's container is made (or taken warm) before the agent's first tool call, and ends after the checks.
        ContainerTrial trial;
        try {
            trial = Sandboxes.containers(ContainerSpecs.engine(plan.config()))
                    .open(spec.get(), workspace.root(), plan.config().workspaceRoot(), runId);
        } catch (AssayException e) {
            return item(runId, seq, evalCase, ItemStatus.ERROR, 0, Transcript.EMPTY, "", null, e.problem(), started);
        }
        try {
            return runIn(runId, seq, evalCase, input, subject, plan, workspace.in(trial), log, cancelled, started);
        } finally {
            trial.close(plan.config().workspacePolicy() == WorkspacePolicy.KEEP_ALL);
        }
    }

    private Item runIn(
            String runId,
            int seq,
            Case evalCase,
            SubjectInput input,
            Subject subject,
            RunPlan plan,
            Workspace workspace,
            Consumer<String> log,
            BooleanSupplier cancelled,
            Instant started)
            throws InterruptedException {
        Optional<EnvironmentSpec> environmentSpec = environmentOf(evalCase);
        Duration timeout =
                evalCase.timeout() != null ? evalCase.timeout() : plan.config().defaultTimeout();
        Instant deadline = Instant.now().plus(timeout);
        if (environmentSpec.isEmpty()) {
            return runTrial(
                    runId, seq, evalCase, input, subject, plan, workspace, log, cancelled, started, timeout, deadline,
                    null);
        }
        // A fresh environment per trial, stopped however the trial ends.
        Environments environments = Environments.here();
        var container = ContainerSpecs.of(evalCase);
        if (container.isPresent()) {
            // Its own container of the trial's image: the agent's container never sees the case files.
            environments = environments.in(Sandboxes.containers(ContainerSpecs.engine(plan.config()))
                    .environments(container.get(), plan.config().workspaceRoot(), runId));
        }
        Environment environment;
        try {
            environment = environments.start(environmentSpec.get(), timeout);
        } catch (AssayException e) {
            return item(runId, seq, evalCase, ItemStatus.ERROR, 0, Transcript.EMPTY, "", null, e.problem(), started);
        }
        try (environment) {
            var available = new LinkedHashSet<>(plan.subject().toolNames(input));
            environment.tools().forEach(tool -> available.add(tool.name()));
            Set<String> stillMissing = missingTools(checkers, evalCase, available);
            if (!stillMissing.isEmpty()) {
                return missingToolsItem(runId, seq, evalCase, plan, stillMissing, started);
            }
            var trial = new Trial(environmentSpec.get(), environment, environments);
            return runTrial(
                    runId, seq, evalCase, input, subject, plan, workspace, log, cancelled, started, timeout, deadline,
                    trial);
        }
    }

    private static Optional<EnvironmentSpec> environmentOf(Case evalCase) {
        return EnvironmentSpec.of(
                evalCase.attributes().get(EnvironmentSpec.FIELD),
                evalCase.attributes().get(EnvironmentSpec.INITIAL_ACTIONS),
                evalCase.source().file());
    }

    private static Item missingToolsItem(
            String runId, int seq, Case evalCase, RunPlan plan, Set<String> missing, Instant started) {
        Problem problem = Problem.of(
                        "case.missing_tools",
                        "the target lacks the tools this case needs: " + String.join(", ", missing))
                .withDetail("missing_tools", List.copyOf(missing));
        // A tool of an MCP server that was down is missing for a reason the user can act on: say which.
        var mcpReasons =
                McpServerState.skipReasons(plan.config().spec().observed().mcpServers(), missing);
        if (!mcpReasons.isEmpty()) {
            problem = problem.withDetail("mcp", mcpReasons);
        }
        return item(runId, seq, evalCase, ItemStatus.SKIPPED, 0, Transcript.EMPTY, "", null, problem, started);
    }

    /**
     * The trial's environment while it runs.
     *
     * @param spec as the case names it
     * @param environment the running one
     * @param environments where a fresh one is started for a state comparison
     */
    private record Trial(EnvironmentSpec spec, Environment environment, Environments environments) {}

    private Item runTrial(
            String runId,
            int seq,
            Case evalCase,
            SubjectInput input,
            Subject subject,
            RunPlan plan,
            Workspace workspace,
            Consumer<String> log,
            BooleanSupplier cancelled,
            Instant started,
            Duration timeout,
            Instant deadline,
            Trial trial)
            throws InterruptedException {
        Long caseMaxTokens = plan.config().spec().limits().budget().caseMaxTokens();
        var transcript = new TranscriptBuilder(caseMaxTokens == null ? 0 : caseMaxTokens);
        var session = new Session(
                runId,
                sessionId(runId, evalCase),
                plan.config().userId(),
                workspace,
                deadline,
                transcript,
                log,
                responses,
                observer,
                trial == null ? List.of() : trial.environment().tools());
        long subjectStart = System.nanoTime();
        Future<Transcript> work = subjectThreads.submit(() -> subject.run(input, session));
        Transcript result;
        try {
            result = Deadlines.await(work, remaining(deadline));
        } catch (TimeoutException e) {
            transcript.add(new TranscriptEvent.SubjectError(
                    Instant.now(),
                    Problem.of("target.timeout", "the case did not finish within " + timeout.toSeconds() + " s")
                            .withDetail("timeout_s", timeout.toSeconds())));
            result = transcript.build();
        } catch (InterruptedException e) {
            work.cancel(true);
            if (cancelled.getAsBoolean()) {
                return cancelledItem(runId, seq, evalCase, transcript.build(), started);
            }
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            Problem problem = cause instanceof AssayException assay
                    ? assay.problem()
                    : Problem.of("target.internal_error", "the target failed: " + cause);
            transcript.add(new TranscriptEvent.SubjectError(Instant.now(), problem));
            result = transcript.build();
        }
        // A system under test that does not stop at the limit itself is stopped here, once it has returned.
        var overLimit = transcript.overTokenLimit();
        if (overLimit.isPresent() && result.error().isEmpty()) {
            transcript.add(new TranscriptEvent.SubjectError(Instant.now(), overLimit.get()));
            result = transcript.build();
        }
        if (cancelled.getAsBoolean() && result.error().isPresent()) {
            return cancelledItem(runId, seq, evalCase, result, started);
        }
        var subjectError = result.error();
        // A container that died under the agent leaves nothing to judge: the item is an error, not a failure.
        var died = workspace.sandbox().flatMap(ContainerSpecs::died);
        if (subjectError.isEmpty() && died.isPresent()) {
            return item(
                    runId, seq, evalCase, ItemStatus.ERROR, 0, result, result.finalAnswer(), null, died.get(), started);
        }
        if (subjectError.isPresent()) {
            return item(
                    runId,
                    seq,
                    evalCase,
                    ItemStatus.ERROR,
                    0,
                    result,
                    result.finalAnswer(),
                    null,
                    subjectError.get().problem(),
                    started);
        }
        Duration subjectTime = Duration.ofNanos(System.nanoTime() - subjectStart);
        TrialEnvironment ended = null;
        if (trial != null) {
            try {
                JsonNode endState = trial.environment().state();
                ended = new TrialEnvironment(trial.spec(), endState, trial.environments(), timeout);
            } catch (AssayException e) {
                return item(
                        runId,
                        seq,
                        evalCase,
                        ItemStatus.ERROR,
                        0,
                        result,
                        result.finalAnswer(),
                        null,
                        e.problem(),
                        started);
            }
        }
        try {
            return judge(
                    runId,
                    seq,
                    evalCase,
                    result,
                    workspace,
                    plan.config().weights().scoring(),
                    subjectTime,
                    subjectCost(subject, result, plan),
                    ended,
                    started);
        } catch (InterruptedException e) {
            // A checker that waits (a judge model, a sandboxed program) was interrupted by the cancellation.
            if (cancelled.getAsBoolean()) {
                return cancelledItem(runId, seq, evalCase, result, started);
            }
            throw e;
        }
    }

    /**
     * {@return what the system under test's model calls cost at the run's prices, in US dollars}: 0 when it used no
     * tokens, null when its model has no price (as {@link dev.assay.cost.ItemCost} leaves it unpriced)
     */
    private static Double subjectCost(Subject subject, Transcript transcript, RunPlan plan) {
        Usage usage = transcript.usage();
        if (usage.totalTokens() == 0) {
            return 0.0;
        }
        return plan.config()
                .spec()
                .limits()
                .prices()
                .find(subject.model())
                .map(price -> price.cost(usage))
                .orElse(null);
    }

    private static Item cancelledItem(String runId, int seq, Case evalCase, Transcript transcript, Instant started) {
        return item(
                runId,
                seq,
                evalCase,
                ItemStatus.CANCELLED,
                0,
                transcript,
                "",
                null,
                Problem.of("run.cancelled", "the run was cancelled while this case was running"),
                started);
    }

    private Item judge(
            String runId,
            int seq,
            Case evalCase,
            Transcript transcript,
            Workspace workspace,
            Weights.Scoring scoring,
            Duration subjectTime,
            Double subjectCost,
            TrialEnvironment environment,
            Instant started)
            throws InterruptedException {
        var context = CheckContext.of(evalCase, transcript, workspace, responses, evalCase.id(), scoring)
                .withSubjectTime(subjectTime)
                .withSubjectCost(subjectCost)
                .withEnvironment(environment);
        ArrayNode details = Json.MAPPER.createArrayNode();
        double weighted = 0;
        double totalWeight = 0;
        double plainSum = 0;
        boolean allPassed = !evalCase.checks().isEmpty();
        Verdict decisive = null;
        for (Check check : evalCase.checks()) {
            Verdict verdict = verdict(check, context);
            ObjectNode detail = details.addObject();
            detail.put("checker", check.checker());
            detail.put("weight", check.weight());
            detail.set("expected", check.expected());
            detail.setAll(verdict.toJson());
            weighted += check.weight() * verdict.score();
            totalWeight += check.weight();
            plainSum += verdict.score();
            allPassed &= verdict.status() == Verdict.Status.PASSED;
            if (verdict.status() == Verdict.Status.SKIPPED
                    || (verdict.status() == Verdict.Status.ERROR
                            && (decisive == null || decisive.status() != Verdict.Status.SKIPPED))) {
                decisive = verdict;
            }
        }
        ObjectNode checkerDetail = Json.object();
        checkerDetail.set("checks", details);
        if (decisive != null) {
            Problem problem = new Problem(decisive.errorType(), decisive.message(), Map.of());
            ItemStatus status = ItemStatus.of(decisive.status());
            return item(
                    runId,
                    seq,
                    evalCase,
                    status,
                    0,
                    transcript,
                    context.finalAnswer(),
                    checkerDetail,
                    problem,
                    started);
        }
        double score = totalWeight > 0
                ? weighted / totalWeight
                : evalCase.checks().isEmpty() ? 0 : plainSum / evalCase.checks().size();
        score = Math.max(0, Math.min(1, score));
        // A check may pass below full marks (a promptfoo assertion at its threshold): a case whose every check passed
        // has passed, with the score its checks gave.
        ItemStatus status = allPassed || score >= 1 - 1e-9
                ? ItemStatus.PASSED
                : score <= 1e-9 ? ItemStatus.FAILED : ItemStatus.PARTIAL;
        return item(
                runId,
                seq,
                evalCase,
                status,
                status == ItemStatus.PASSED && !allPassed ? 1.0 : score,
                transcript,
                context.finalAnswer(),
                checkerDetail,
                null,
                started);
    }

    private Verdict verdict(Check check, CheckContext context) throws InterruptedException {
        try {
            Checker checker = checkers.create(check);
            return checker.check(context);
        } catch (AssayException e) {
            return Verdict.error(e.problem());
        } catch (RuntimeException | StackOverflowError e) {
            // A checker bug is this item's error, not the run's end; java.util.regex overflows the stack on some
            // long answers, and an error escaping here would leave the case unstored.
            return Verdict.error(Problem.of("check.internal_error", check.checker() + " failed: " + e));
        }
    }

    /**
     * Prerequisites plus the tools the case's checks require ({@link CheckerRegistry#requiredTools}), compared by
     * canonical name; MCP-style names with {@code @} compare as written.
     */
    static Set<String> missingTools(CheckerRegistry checkers, Case evalCase, Set<String> available) {
        var needed = new TreeSet<String>();
        evalCase.prerequisites().forEach(name -> needed.add(ToolNames.canonical(name)));
        evalCase.checks().forEach(check -> needed.addAll(checkers.requiredTools(check)));
        needed.remove("");
        var canonicalAvailable = new TreeSet<String>();
        available.forEach(name -> canonicalAvailable.add(ToolNames.canonical(name)));
        needed.removeAll(canonicalAvailable);
        return needed;
    }

    private static Workspace seed(
            Path directory, Map<String, String> fixtures, Case evalCase, Map<String, String> placeholders) {
        Workspace workspace = new Workspace(directory);
        for (var fixture : fixtures.entrySet()) {
            write(workspace, evalCase, Placeholders.fill(fixture.getKey(), placeholders), fixture.getValue());
        }
        for (var file : evalCase.files().entrySet()) {
            write(workspace, evalCase, file.getKey(), file.getValue());
        }
        return workspace;
    }

    private static void write(Workspace workspace, Case evalCase, String relative, String content) {
        try {
            Path path = workspace.resolve(relative);
            Files.createDirectories(path.getParent());
            Files.writeString(path, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            // Named as the case names it: the exception's message holds the workspace's host path.
            String reason = e instanceof FileAlreadyExistsException || e instanceof NotDirectoryException
                    ? "another of its files stands where this one needs a directory"
                    : e instanceof FileSystemException failed && failed.getReason() != null
                            ? failed.getReason()
                            : e.getClass().getSimpleName();
            throw new AssayException(
                    Problem.of(
                                    "workspace.seed_failed",
                                    "could not write " + relative + " into the workspace of case " + evalCase.id()
                                            + ": " + reason)
                            .withDetail("file", relative),
                    e);
        }
    }

    private static Duration remaining(Instant deadline) {
        Duration left = Duration.between(Instant.now(), deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }

    private static String sessionId(String runId, Case evalCase) {
        return "eval_" + runId.substring(0, Math.min(8, runId.length())) + "_" + evalCase.id();
    }

    private static Item item(
            String runId,
            int seq,
            Case evalCase,
            ItemStatus status,
            double score,
            Transcript transcript,
            String finalAnswer,
            ObjectNode checkerDetail,
            Problem error,
            Instant started) {
        Instant finished = now();
        var toolCalls = new ArrayList<ToolCallView>();
        var outcomes = new java.util.HashMap<String, Boolean>();
        for (TranscriptEvent event : transcript.events()) {
            if (event instanceof TranscriptEvent.ToolOutput output && output.callId() != null) {
                outcomes.put(output.callId(), output.ok());
            }
        }
        boolean truncated = StoredText.exceeds(finalAnswer) || StoredText.exceeds(checkerDetail);
        for (TranscriptEvent.ToolCall call : transcript.toolCalls()) {
            truncated |= StoredText.exceeds(call.arguments());
            toolCalls.add(new ToolCallView(call.tool(), StoredText.cap(call.arguments()), outcomes.get(call.callId())));
        }
        JsonNode events = transcript.toJson();
        truncated |= StoredText.exceeds(events);
        // Judged whole above; stored capped (StoredText).
        return new Item(
                runId,
                evalCase.id(),
                seq,
                evalCase.dimension(),
                status,
                score,
                1.0,
                evalCase.weight(),
                evalCase.prompt(),
                StoredText.cap(finalAnswer),
                toolCalls,
                StoredText.cap(checkerDetail),
                error,
                StoredText.cap(events),
                started,
                finished,
                Duration.between(started, finished).toMillis() / 1000.0,
                truncated);
    }

    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
