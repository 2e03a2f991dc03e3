package dev.assay.tools.mcp;

import static dev.assay.testing.ScriptedOpenAiServer.calls;
import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.SimulatedUser;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.RunStatus;
import dev.assay.run.Engine;
import dev.assay.run.RunHandle;
import dev.assay.run.RunListener;
import dev.assay.run.RunPlan;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.ToolMode;
import dev.assay.subject.UserModels;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.ScriptedOpenAiServer.Call;
import dev.assay.testing.ScriptedOpenAiServer.Reply;
import dev.assay.testing.TestSpecs;
import dev.assay.tools.environment.Environment;
import dev.assay.tools.environment.EnvironmentSpec;
import dev.assay.tools.environment.Environments;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example domain (examples/shop) played by a scripted agent in real engine runs: a fresh environment per trial and
 * per state comparison, the outcome checks, and the environment's failures as {@code environment.*} errors.
 */
class ShopEnvironmentTest {
    private static final Path SHOP =
            Path.of("..", "examples", "shop").toAbsolutePath().normalize();

    /** Added to every environment's command (the server ignores it), so this test finds its processes. */
    private final String marker = "--assay-test-" + UUID.randomUUID();

    @TempDir
    Path temp;

    @BeforeAll
    static void needsPython() {
        boolean python = List.of(
                        System.getenv().getOrDefault("PATH", "/usr/bin").split(":"))
                .stream()
                .anyMatch(directory -> Files.isExecutable(Path.of(directory, "python3")));
        Assumptions.assumeTrue(python, "the example environment needs python3, which is not on the PATH here");
    }

    @Test
    void an_agent_that_performs_the_gold_actions_and_tells_the_user_passes_every_task() throws Exception {
        Suite suite = shop();
        assertThat(suite.cases()).hasSizeGreaterThanOrEqualTo(20);
        assertThat(suite.cases()).anySatisfy(task -> assertThat(task.tags()).contains("refusal"));
        assertThat(suite.cases()).anySatisfy(task -> assertThat(task.tags()).contains("multi_turn"));

        Map<String, Item> items = run(suite, ShopEnvironmentTest::gold, 4, 1);

        assertThat(items.values())
                .allSatisfy(item -> assertThat(item.status()).as(item.caseId()).isEqualTo(ItemStatus.PASSED));
        assertThat(items).hasSize(suite.cases().size());
        assertNoEnvironmentLeft();
    }

    @Test
    void a_wrong_argument_a_skipped_write_an_extra_write_and_an_untold_fact_each_fail_the_right_check()
            throws Exception {
        Case task = shopCase("cancel-by-mistake");
        Call rightCancel = Call.of("cancel_order", "{\"order_id\": \"O-1002\", \"reason\": \"ordered by mistake\"}");
        Call find = Call.of("find_customer", "{\"email\": \"ana.ruiz@example.com\"}");

        Item wrongArgument = only(
                task,
                List.of(
                        calls(
                                find,
                                Call.of(
                                        "cancel_order",
                                        "{\"order_id\": \"O-1002\", \"reason\": \"no longer needed\"}")),
                        text("Cancelled; 32 refunded.")));
        Item skippedWrite = only(task, List.of(calls(find), text("Cancelled; 32 refunded.")));
        Item extraWrite = only(
                task,
                List.of(
                        calls(
                                find,
                                rightCancel,
                                Call.of(
                                        "update_address",
                                        "{\"order_id\": \"O-1005\", \"address\": {\"street\": \"x\", \"city\": \"y\","
                                                + " \"zip\": \"z\"}}")),
                        text("Cancelled; 32 refunded.")));
        Item untold = only(task, List.of(calls(find, rightCancel), text("Done.")));

        assertThat(failedChecks(wrongArgument)).containsExactly("state_matches", "actions_called");
        assertThat(errorType(wrongArgument, "state_matches")).isEqualTo("state_matches.differs");
        assertThat(differences(wrongArgument)).contains("/orders/O-1002/cancel_reason");
        assertThat(errorType(wrongArgument, "actions_called")).isEqualTo("actions_called.missing");
        assertThat(failedChecks(skippedWrite)).containsExactly("state_matches", "actions_called");
        assertThat(differences(skippedWrite)).contains("/orders/O-1002/status", "/refunds/0");
        // Another customer's order changed: only the state comparison sees it.
        assertThat(failedChecks(extraWrite)).containsExactly("state_matches");
        assertThat(differences(extraWrite)).contains("/orders/O-1005/address/street");
        assertThat(failedChecks(untold)).containsExactly("told_user");
        assertThat(errorType(untold, "told_user")).isEqualTo("told_user.missing");
        assertNoEnvironmentLeft();
    }

    @Test
    void a_refusal_task_fails_when_the_agent_writes_and_the_state_difference_shows_both_values() throws Exception {
        Case task = shopCase("refuse-wrong-zip");

        Item item = only(
                task,
                List.of(
                        calls(Call.of(
                                "cancel_order", "{\"order_id\": \"O-1002\", \"reason\": \"ordered by mistake\"}")),
                        text("Cancelled.")));

        assertThat(failedChecks(item)).containsExactly("state_matches");
        JsonNode status = difference(item, "/orders/O-1002/status");
        assertThat(status.path("expected").asText()).isEqualTo("pending");
        assertThat(status.path("actual").asText()).isEqualTo("cancelled");
    }

    @Test
    void a_check_that_needs_an_environment_tool_is_judged_not_skipped_for_a_missing_tool() throws Exception {
        Case task = shopCase("cancel-by-mistake");
        var checks = new ArrayList<>(task.checks());
        checks.add(Check.of("tool_called", Json.parse("\"cancel_order\"")));

        Item item = only(task.withChecks(checks), gold(task));

        assertThat(item.status()).isEqualTo(ItemStatus.PASSED);
    }

    @Test
    void eight_concurrent_trials_of_a_stateful_task_never_see_each_others_state() throws Exception {
        // transfer_to_human appends to the state: a shared environment, or gold actions played on the agent's, would
        // hold more than one transfer and fail the comparison.
        Suite suite = shop().withCases(List.of(shopCase("transfer-large-cancel")));

        Map<String, Item> items = run(suite, ShopEnvironmentTest::gold, 8, 8);

        assertThat(items).hasSize(8);
        assertThat(items.values()).allSatisfy(item -> assertThat(item.status()).isEqualTo(ItemStatus.PASSED));
        assertNoEnvironmentLeft();
    }

    @Test
    void an_environment_that_fails_to_start_answers_garbage_has_no_state_or_hangs_is_an_environment_error()
            throws Exception {
        Case base = shopCase("order-status");
        Suite suite = shop().withCases(List.of(
                withEnvironment(base, "missing-server", List.of("python3", "env/no-such-server.py"), "shop://db"),
                withEnvironment(
                        base, "garbage", List.of("/bin/sh", "-c", "echo this is not JSON-RPC; cat"), "shop://db"),
                withEnvironment(base, "no-state", serverCommand(), "shop://nothing"),
                withEnvironment(base, "silent", List.of("/bin/sh", "-c", "exec sleep 600"), "shop://db")));

        Map<String, Item> items = run(suite, ShopEnvironmentTest::gold, 4, 1, Duration.ofSeconds(3));

        assertThat(items.get("missing-server").error().type()).isEqualTo("environment.start_failed");
        assertThat(items.get("garbage").error().type()).isEqualTo("environment.bad_response");
        assertThat(items.get("no-state").error().type()).isEqualTo("environment.bad_state");
        assertThat(items.get("silent").error().type()).isEqualTo("environment.timeout");
        assertThat(items.values()).allSatisfy(item -> assertThat(item.status()).isEqualTo(ItemStatus.ERROR));
        assertNoEnvironmentLeft();
    }

    @Test
    void an_environment_killed_mid_trial_is_an_environment_died_error_and_not_a_hang() throws Exception {
        Suite suite = shop().withCases(List.of(shopCase("cancel-by-mistake")));
        List<Reply> turns = List.of(
                calls(Call.of("find_customer", "{\"email\": \"ana.ruiz@example.com\"}")),
                calls(Call.of("get_order", "{\"order_id\": \"O-1002\"}")),
                text("Sorry, something went wrong."));
        ScriptedOpenAiServer.Script killing = request -> {
            if (request.assistantTurns() == 1) {
                // kill -9 of the environment between the agent's first and second tool call
                environmentProcesses().forEach(ProcessHandle::destroyForcibly);
            }
            return turns.get(Math.min(request.assistantTurns(), turns.size() - 1));
        };

        Item item = runScripted(suite, killing, 1, 1, Duration.ofSeconds(60))
                .values()
                .iterator()
                .next();

        assertThat(item.status()).isEqualTo(ItemStatus.ERROR);
        assertThat(item.error().type()).isEqualTo("environment.died");
        assertThat(item.toolCalls()).hasSize(2);
        assertThat(item.toolCalls().get(1).ok()).isFalse();
        assertNoEnvironmentLeft();
    }

    @Test
    void initial_actions_set_up_the_trials_environment_and_the_gold_one_and_a_failing_one_is_an_error()
            throws Exception {
        // The order's address is changed before the trial: an agent that then cancels it as the gold actions do ends in
        // the gold state only when the gold actions' fresh environment was set up the same way.
        JsonNode moved = Json.parse("""
                [{"name": "update_address", "arguments": {"order_id": "O-1002",
                  "address": {"street": "Gran Via 1", "city": "Madrid", "zip": "28013"}}}]""");
        JsonNode broken = Json.parse("[{\"name\": \"cancel_order\", \"arguments\": {\"order_id\": \"O-404\"}}]");
        Case base = shopCase("cancel-by-mistake");
        Suite suite = shop().withCases(
                        List.of(withInitialActions(base, "moved", moved), withInitialActions(base, "broken", broken)));

        Map<String, Item> items = run(suite, ShopEnvironmentTest::gold, 2, 1);

        assertThat(items.get("moved").status())
                .as(items.get("moved").toString())
                .isEqualTo(ItemStatus.PASSED);
        assertThat(items.get("broken").status()).isEqualTo(ItemStatus.ERROR);
        assertThat(items.get("broken").error().type()).isEqualTo("environment.initial_action_failed");
        assertThat(items.get("broken").error().details()).containsEntry("action", "cancel_order");
        EnvironmentSpec spec = EnvironmentSpec.of(
                        base.attributes().get("environment"),
                        moved,
                        base.source().file())
                .orElseThrow();
        try (Environment environment = Environments.here().start(spec, Duration.ofSeconds(30))) {
            assertThat(environment.state().at("/orders/O-1002/address/street").asText())
                    .isEqualTo("Gran Via 1");
        }
        assertNoEnvironmentLeft();
    }

    @Test
    void a_cancelled_run_leaves_no_environment_running() throws Exception {
        Suite suite = shop().withCases(List.of(shopCase("cancel-by-mistake")));
        Function<Case, List<Reply>> slow = task -> List.of(new Reply.Delayed(60_000, text("late")));
        try (var model = ScriptedOpenAiServer.start(script(suite, slow));
                Store store = Stores.open("jdbc:sqlite:" + temp.resolve("cancel.db"))) {
            RunHandle handle =
                    new Engine(store).start(plan(suite, model, 1, 1, Duration.ofSeconds(120)), RunListener.NONE);
            waitFor(() -> !environmentProcesses().isEmpty());
            assertThat(environmentProcesses())
                    .as("the trial's environment, running")
                    .isNotEmpty();

            handle.cancel();

            assertThat(handle.await().status()).isEqualTo(RunStatus.CANCELLED);
        }
        assertNoEnvironmentLeft();
    }

    // ---- the scripted agent

    /** Every action of the task's state check (reads and writes) in one turn, then every fact it must tell. */
    private static List<Reply> gold(Case task) {
        var actions = new ArrayList<Call>();
        var told = new ArrayList<String>();
        for (Check check : task.checks()) {
            if (check.checker().equals("state_matches")) {
                check.expected()
                        .path("actions")
                        .forEach(action ->
                                actions.add(new Call(action.path("name").asText(), action.path("arguments"))));
            }
            if (check.checker().equals("told_user")) {
                check.expected().path("info").forEach(info -> told.add(info.asText()));
            }
        }
        String answer = "Done. " + String.join("; ", told);
        return actions.isEmpty() ? List.of(text(answer)) : List.of(calls(actions.toArray(Call[]::new)), text(answer));
    }

    private ScriptedOpenAiServer.Script script(Suite suite, Function<Case, List<Reply>> behaviour) {
        Map<String, List<Reply>> byPrompt = new LinkedHashMap<>();
        suite.cases().forEach(task -> byPrompt.put(task.prompt(), behaviour.apply(task)));
        return request -> {
            if (request.body().path("model").asText().equals(USER_MODEL)) {
                return userTurn(suite, request);
            }
            List<Reply> turns = byPrompt.get(request.firstUserText());
            if (turns == null) {
                return text("unscripted");
            }
            return turns.get(Math.min(request.assistantTurns(), turns.size() - 1));
        };
    }

    /** The model that plays the user of the conversation tasks, served by the same scripted server. */
    private static final String USER_MODEL = "scripted-user";

    /**
     * The simulated user of a conversation task: opens with the task's prompt, so that the scripted agent recognises
     * the task, and ends the conversation once the agent has answered.
     */
    private static Reply userTurn(Suite suite, ScriptedOpenAiServer.ChatRequest request) {
        if (request.assistantTurns() > 0) {
            return text("Thanks. ###STOP###");
        }
        String system = request.body().path("messages").path(0).path("content").asText();
        return suite.cases().stream()
                .filter(task -> SimulatedUser.of(task)
                        .filter(user -> system.contains(user.instructions()))
                        .isPresent())
                .map(task -> text(task.prompt()))
                .findFirst()
                .orElse(text("unscripted"));
    }

    // ---- runs

    private Map<String, Item> run(Suite suite, Function<Case, List<Reply>> behaviour, int concurrency, int samples)
            throws Exception {
        return run(suite, behaviour, concurrency, samples, Duration.ofSeconds(60));
    }

    private Map<String, Item> run(
            Suite suite, Function<Case, List<Reply>> behaviour, int concurrency, int samples, Duration timeout)
            throws Exception {
        return runScripted(suite, script(suite, behaviour), concurrency, samples, timeout);
    }

    private Map<String, Item> runScripted(
            Suite suite, ScriptedOpenAiServer.Script script, int concurrency, int samples, Duration timeout)
            throws Exception {
        try (var model = ScriptedOpenAiServer.start(script);
                Store store = Stores.open("jdbc:sqlite:" + temp.resolve(UUID.randomUUID() + ".db"))) {
            var run = new Engine(store).run(plan(suite, model, concurrency, samples, timeout), RunListener.NONE);
            return RunReport.load(store, run.runId()).items().stream()
                    .collect(Collectors.toMap(Item::caseId, item -> item, (a, b) -> a, LinkedHashMap::new));
        }
    }

    private RunPlan plan(Suite suite, ScriptedOpenAiServer model, int concurrency, int samples, Duration timeout) {
        var chat = new OpenAiChatModel(
                new OpenAiSettings("scripted", model.baseUrl(), "", false, Duration.ofSeconds(90), RetryPolicy.none()),
                line -> {});
        var user = new OpenAiChatModel(
                new OpenAiSettings(USER_MODEL, model.baseUrl(), "", false, Duration.ofSeconds(90), RetryPolicy.none()),
                line -> {});
        var subject = new AgentSubject(
                chat,
                List.of(),
                new AgentSettings(ToolMode.NATIVE, 6, 0.0, null, null),
                16,
                Map.of(),
                new UserModels(USER_MODEL, name -> user));
        var config = TestSpecs.config(
                temp.resolve("work"),
                given -> given.concurrency(concurrency).samples(samples).timeout(timeout));
        return new RunPlan(marked(suite), subject, config, CheckerRegistry.builtins());
    }

    private Item only(Case task, List<Reply> replies) throws Exception {
        Suite suite = shop().withCases(List.of(task));
        return run(suite, any -> replies, 1, 1).values().iterator().next();
    }

    // ---- the suite

    private static Suite shop() {
        return new SuiteLoader(CheckerRegistry.builtins())
                .load(SHOP.resolve("tasks.json"))
                .requireValid();
    }

    private static Case shopCase(String id) {
        return shop().cases().stream()
                .filter(task -> task.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> serverCommand() {
        return List.of("python3", "env/shop.py", "--db", "env/db.txt");
    }

    private static Case withEnvironment(Case task, String id, List<String> command, String state) {
        ObjectNode attributes = task.attributes().deepCopy();
        ObjectNode environment = attributes.putObject("environment");
        environment.putObject("mcp").set("command", Json.tree(command));
        environment.put("state", state);
        return renamed(task, id, attributes);
    }

    private static Case withInitialActions(Case task, String id, JsonNode initialActions) {
        ObjectNode attributes = task.attributes().deepCopy();
        attributes.set(EnvironmentSpec.INITIAL_ACTIONS, initialActions.deepCopy());
        return renamed(task, id, attributes);
    }

    /** {@return the task under another id and prompt, so the scripted agent tells it apart, with these attributes} */
    private static Case renamed(Case task, String id, ObjectNode attributes) {
        return new Case(
                id,
                task.dimension(),
                task.language(),
                task.prompt() + " (" + id + ")",
                task.weight(),
                null,
                task.checks(),
                task.prerequisites(),
                task.tags(),
                task.files(),
                attributes,
                task.source());
    }

    // The suite with this test's marker added to every environment's command.
    private Suite marked(Suite suite) {
        var cases = new ArrayList<Case>();
        for (Case task : suite.cases()) {
            ObjectNode attributes = task.attributes().deepCopy();
            JsonNode command = attributes.path("environment").path("mcp").path("command");
            if (command instanceof ArrayNode parts) {
                parts.add(marker);
            }
            cases.add(new Case(
                    task.id(),
                    task.dimension(),
                    task.language(),
                    task.prompt(),
                    task.weight(),
                    task.timeout(),
                    task.checks(),
                    task.prerequisites(),
                    task.tags(),
                    task.files(),
                    attributes,
                    task.source()));
        }
        return suite.withCases(cases);
    }

    // ---- what the items say

    private static List<String> failedChecks(Item item) {
        var failed = new ArrayList<String>();
        item.checkerDetail().path("checks").forEach(check -> {
            if (!check.path("status").asText().equals("passed")) {
                failed.add(check.path("checker").asText());
            }
        });
        return failed;
    }

    private static JsonNode check(Item item, String checker) {
        for (JsonNode check : item.checkerDetail().path("checks")) {
            if (check.path("checker").asText().equals(checker)) {
                return check;
            }
        }
        throw new AssertionError("no " + checker + " check in " + item.checkerDetail());
    }

    private static String errorType(Item item, String checker) {
        return check(item, checker).path("error_type").asText();
    }

    private static List<String> differences(Item item) {
        var pointers = new ArrayList<String>();
        check(item, "state_matches")
                .path("detail")
                .path("differences")
                .forEach(difference -> pointers.add(difference.path("pointer").asText()));
        return pointers;
    }

    private static JsonNode difference(Item item, String pointer) {
        for (JsonNode difference : check(item, "state_matches").path("detail").path("differences")) {
            if (difference.path("pointer").asText().equals(pointer)) {
                return difference;
            }
        }
        throw new AssertionError("no difference at " + pointer);
    }

    // ---- processes

    private List<ProcessHandle> environmentProcesses() {
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().commandLine().orElse("").contains(marker))
                .toList();
    }

    private void assertNoEnvironmentLeft() throws InterruptedException {
        waitFor(() -> environmentProcesses().isEmpty());
        assertThat(environmentProcesses())
                .as("environment processes left running")
                .isEmpty();
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        Instant until = Instant.now().plusSeconds(10);
        while (!condition.getAsBoolean() && Instant.now().isBefore(until)) {
            Thread.sleep(50);
        }
    }
}
