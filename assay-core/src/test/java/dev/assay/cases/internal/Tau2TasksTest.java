package dev.assay.cases.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.CheckValidator;
import dev.assay.cases.SimulatedUser;
import dev.assay.cases.SuiteLoad;
import dev.assay.cases.SuiteLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * τ²-bench's {@code tasks.json} read as cases: the user scenario becomes the simulated user, the criteria its
 * {@code reward_basis} counts become checks, the domain's policy the system prompt, and unused fields one note.
 */
class Tau2TasksTest {
    /** Accepts every check: the mapping's shapes are asserted here, the checkers' own validation elsewhere. */
    private static final CheckValidator ANY = check -> {};

    /** Two tasks in τ²'s exact shape (data_model/tasks.py), as its published files write them. */
    private static final String TASKS = """
            [
              {
                "id": "0",
                "description": {"purpose": null, "relevant_policies": null, "notes": null},
                "user_scenario": {
                  "persona": null,
                  "instructions": {
                    "task_instructions": "You don't want to cancel if you don't get a refund.",
                    "domain": "airline",
                    "reason_for_call": "You want to cancel reservation EHGLP3.",
                    "known_info": "You are Emma Kim.\\nYour user id is emma_kim_9957.",
                    "unknown_info": null
                  }
                },
                "initial_state": null,
                "evaluation_criteria": {
                  "actions": [],
                  "communicate_info": [],
                  "nl_assertions": ["Agent should refuse to proceed with the cancellation."],
                  "reward_basis": ["DB", "COMMUNICATE"]
                },
                "annotations": null
              },
              {
                "id": "7",
                "description": {"purpose": "Refund to the original payment.", "relevant_policies": null, "notes": null},
                "user_scenario": {
                  "persona": "Polite and brief.",
                  "instructions": "Cancel order #W1 and ask for the refund amount."
                },
                "ticket": "Cancel #W1",
                "initial_state": null,
                "evaluation_criteria": {
                  "actions": [
                    {"action_id": "7_0", "name": "get_order_details", "arguments": {"order_id": "#W1"}, "info": null},
                    {"action_id": "7_1", "requestor": "assistant", "name": "cancel_pending_order",
                     "arguments": {"order_id": "#W1", "reason": "no longer needed"}, "info": null,
                     "compare_args": ["order_id"]}
                  ],
                  "communicate_info": ["54.04"],
                  "nl_assertions": null,
                  "reward_basis": ["DB", "COMMUNICATE", "ACTION", "NL_ASSERTION"]
                }
              }
            ]
            """;

    @TempDir
    Path temp;

    private SuiteLoad load(Path file) {
        return new SuiteLoader(ANY).load(file);
    }

    @Test
    void each_task_becomes_a_conversation_case_with_the_checks_its_reward_basis_counts() throws Exception {
        Path tasks = Files.writeString(temp.resolve("tasks.json"), TASKS);
        Files.writeString(temp.resolve("policy.md"), "# Airline policy\nNo refunds without insurance.");

        SuiteLoad load = load(tasks);

        assertThat(load.problems()).isEmpty();
        List<Case> cases = load.suite().cases();
        assertThat(cases).extracting(Case::id).containsExactly("0", "7");
        Case first = cases.get(0);
        assertThat(first.dimension()).isEqualTo("airline");
        assertThat(first.tags()).containsExactly("tau2", "airline");
        assertThat(first.attributes().path("system").asText())
                .isEqualTo("# Airline policy\nNo refunds without insurance.");
        SimulatedUser user = SimulatedUser.of(first).orElseThrow();
        assertThat(user.instructions())
                .isEqualTo("Instructions:\n\tDomain: airline\n\tReason for call:\n\t\tYou want to cancel reservation"
                        + " EHGLP3.\n\tKnown info:\n\t\tYou are Emma Kim.\n\t\tYour user id is emma_kim_9957.\n\t"
                        + "Task instructions:\n\t\tYou don't want to cancel if you don't get a refund.");
        assertThat(user.stop()).isEqualTo("###STOP###");
        // DB with no gold action: the end state must equal the initial one. No communicate_info, so no told_user.
        assertThat(first.checks()).containsExactly(Check.of("state_matches", Json.parse("{\"actions\": []}")));

        Case second = cases.get(1);
        assertThat(second.dimension()).isEqualTo("tau2");
        assertThat(SimulatedUser.of(second).orElseThrow().instructions())
                .isEqualTo("Persona:\n\tPolite and brief.\nInstructions:\n\tCancel order #W1 and ask for the refund"
                        + " amount.");
        assertThat(second.checks())
                .containsExactly(
                        Check.of("state_matches", Json.parse("""
                                {"actions": [{"name": "get_order_details", "arguments": {"order_id": "#W1"}},
                                             {"name": "cancel_pending_order",
                                              "arguments": {"order_id": "#W1", "reason": "no longer needed"}}]}""")),
                        // ACTION compares only compare_args where the action names them.
                        Check.of("actions_called", Json.parse("""
                                {"actions": [{"name": "get_order_details", "arguments": {"order_id": "#W1"}},
                                             {"name": "cancel_pending_order", "arguments": {"order_id": "#W1"}}]}""")),
                        Check.of("told_user", Json.parse("{\"info\": [\"54.04\"]}")));
    }

    @Test
    void fields_assay_does_not_use_are_named_once_per_file() throws Exception {
        Path tasks = Files.writeString(temp.resolve("tasks.json"), TASKS);

        SuiteLoad load = load(tasks);

        assertThat(load.notes()).hasSize(1);
        String note = load.notes().getFirst();
        assertThat(note)
                .startsWith(tasks.toString() + ": τ²-bench task fields Assay does not use")
                .contains("ticket", "evaluation_criteria.nl_assertions (not in reward_basis)")
                .contains("description");
        // The first task's all-null description uses nothing; the second's purpose is named, once.
        assertThat(note.split("description", -1)).hasSize(2);
    }

    @Test
    void the_runs_environment_goes_to_every_case_that_names_none() throws Exception {
        Path tasks = Files.writeString(temp.resolve("tasks.json"), TASKS);
        Path own = Files.writeString(temp.resolve("own.json"), """
                [{"id": "own", "dimension": "tool", "prompt": "p", "checker": "contains", "expected": "x",
                  "environment": {"mcp": {"command": ["own"]}, "state": "own://db"}}]""");
        JsonNode environment = Json.parse("{\"mcp\": {\"command\": [\"python3\", \"env.py\"]}, \"state\": \"s://db\"}");
        var defaults = Json.object();
        defaults.set("environment", environment);

        SuiteLoad load = new SuiteLoader(ANY).withCaseDefaults(defaults).load(tasks, own);

        assertThat(load.problems()).isEmpty();
        Map<String, JsonNode> byId = load.suite().cases().stream()
                .collect(Collectors.toMap(
                        Case::id, evalCase -> evalCase.attributes().path("environment")));
        assertThat(byId.get("0")).isEqualTo(environment);
        assertThat(byId.get("7")).isEqualTo(environment);
        assertThat(byId.get("own").at("/state").asText()).isEqualTo("own://db");
    }

    @Test
    void the_agents_initialization_actions_become_initial_actions_and_the_rest_of_the_initial_state_is_named()
            throws Exception {
        Path tasks = Files.writeString(temp.resolve("tasks.json"), """
                [{"id": "t1",
                  "user_scenario": {"instructions": "Your phone has no data."},
                  "initial_state": {
                    "initialization_data": {"agent_data": null, "user_data": {"device": {"airplane_mode": true}}},
                    "initialization_actions": [
                      {"env_type": "user", "func_name": "turn_airplane_mode_on", "arguments": {}},
                      {"env_type": "assistant", "func_name": "suspend_line",
                       "arguments": {"customer_id": "C1", "line_id": "L1", "reason": "unpaid bill"}}
                    ],
                    "message_history": null
                  },
                  "evaluation_criteria": {
                    "actions": [{"action_id": "a", "requestor": "user", "name": "turn_airplane_mode_off",
                                 "arguments": {}}],
                    "env_assertions": [{"env_type": "user", "func_name": "assert_mobile_data_status",
                                        "arguments": {"expected_status": true}, "assert_value": true}],
                    "reward_basis": ["DB", "ENV_ASSERTION"]}}]""");
        var defaults = Json.object();
        defaults.set("environment", Json.parse("{\"mcp\": {\"command\": [\"env\"]}, \"state\": \"s://db\"}"));

        SuiteLoad load = new SuiteLoader(ANY).withCaseDefaults(defaults).load(tasks);

        assertThat(load.problems()).isEmpty();
        assertThat(load.suite().cases().getFirst().attributes().get("initial_actions"))
                .isEqualTo(Json.parse("""
                        [{"name": "suspend_line",
                          "arguments": {"customer_id": "C1", "line_id": "L1", "reason": "unpaid bill"}}]"""));
        assertThat(load.notes().getFirst())
                .contains(
                        "initial_state.initialization_data",
                        "initial_state.initialization_actions (env_type: user)",
                        "evaluation_criteria.actions (requestor: user)",
                        "evaluation_criteria.env_assertions",
                        "evaluation_criteria.reward_basis ENV_ASSERTION")
                .doesNotContain("message_history", "initial_state,");
    }

    @Test
    void initial_actions_without_an_environment_to_act_on_are_a_problem_naming_the_field() throws Exception {
        Path tasks = Files.writeString(temp.resolve("tasks.json"), """
                [{"id": "t1", "user_scenario": {"instructions": "Hi."},
                  "initial_state": {"initialization_actions": [
                    {"env_type": "assistant", "func_name": "reset", "arguments": {}}]},
                  "evaluation_criteria": {"actions": []}}]""");
        Path own = Files.writeString(temp.resolve("own.json"), """
                [{"id": "bad", "dimension": "tool", "prompt": "p", "checker": "contains", "expected": "x",
                  "environment": {"mcp": {"command": ["own"]}, "state": "own://db"},
                  "initial_actions": [{"name": "reset", "arguments": []}]}]""");

        SuiteLoad load = load(tasks);
        SuiteLoad badOwn = load(own);

        assertThat(load.problems())
                .singleElement()
                .satisfies(problem -> assertThat(problem.field()).isEqualTo("initial_actions"));
        assertThat(badOwn.problems())
                .singleElement()
                .satisfies(problem -> assertThat(problem.field()).isEqualTo("initial_actions[0]"));
    }

    @Test
    void a_task_file_without_a_policy_beside_it_gives_the_agent_no_system_prompt() throws Exception {
        Path tasks = Files.writeString(temp.resolve("tasks.json"), TASKS);

        assertThat(load(tasks).suite().cases().getFirst().attributes().has("system"))
                .isFalse();
    }

    /**
     * The published airline and retail tasks (sierra-research/tau2-bench,
     * {@code data/tau2/domains/<domain>/tasks.json}; never copied into this repository) all load, their gold actions
     * and communicate_info carried over.
     */
    @Test
    void the_published_airline_and_retail_tasks_all_load_with_their_actions_and_communicate_info() throws Exception {
        Path root = Optional.ofNullable(System.getenv("ASSAY_TAU2_DATA"))
                .map(Path::of)
                .orElseGet(Tau2TasksTest::sharedData);
        var found = new ArrayList<Path>();
        for (String domain : List.of("airline", "retail")) {
            Path tasks = root.resolve(domain).resolve("tasks.json");
            if (Files.isRegularFile(tasks)) {
                found.add(tasks);
            }
        }
        Assumptions.assumeTrue(
                found.size() == 2,
                "τ²-bench's published tasks are absent: put airline/tasks.json and retail/tasks.json from"
                        + " sierra-research/tau2-bench (data/tau2/domains/) under "
                        + root.toAbsolutePath().normalize()
                        + " or under the directory $ASSAY_TAU2_DATA names");
        for (Path tasks : found) {
            JsonNode published = Json.MAPPER.readTree(tasks.toFile());
            SuiteLoad load = load(tasks);

            assertThat(load.problems()).as(tasks.toString()).isEmpty();
            assertThat(load.suite().cases()).hasSize(published.size());
            Map<String, Case> byId =
                    load.suite().cases().stream().collect(Collectors.toMap(Case::id, Function.identity()));
            for (JsonNode task : published) {
                Case evalCase = byId.get(task.path("id").asText());
                JsonNode criteria = task.path("evaluation_criteria");
                var gold = Json.MAPPER.createArrayNode();
                criteria.path("actions")
                        .forEach(action -> gold.addObject()
                                .put("name", action.path("name").asText())
                                .set("arguments", action.path("arguments")));
                assertThat(expected(evalCase, "state_matches").path("actions"))
                        .as(task.path("id").asText())
                        .isEqualTo(gold);
                JsonNode info = criteria.path("communicate_info");
                boolean counted = criteria.path("reward_basis").toString().contains("COMMUNICATE");
                if (!info.isEmpty() && counted) {
                    assertThat(expected(evalCase, "told_user").path("info")).isEqualTo(info);
                } else if (!info.isEmpty()) {
                    // Not in the reward basis (retail's [DB, NL_ASSERTION]): named in the file's note, not judged.
                    assertThat(load.notes())
                            .singleElement()
                            .asString()
                            .contains("evaluation_criteria.communicate_info (not in reward_basis)");
                }
                assertThat(SimulatedUser.of(evalCase).orElseThrow().instructions())
                        .contains("\t\t"
                                + task.at("/user_scenario/instructions/reason_for_call")
                                        .asText()
                                        .replace("\n", "\n\t\t"));
            }
        }
    }

    /** {@return shared/data/tau2 in the nearest directory above the working directory that has one, else /work's} */
    private static Path sharedData() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/data/tau2");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return Path.of("/work/shared/data/tau2");
    }

    private static JsonNode expected(Case evalCase, String checker) {
        return evalCase.checks().stream()
                .filter(check -> check.checker().equals(checker))
                .findFirst()
                .orElseThrow(() -> new AssertionError(evalCase.id() + " has no " + checker + " check"))
                .expected();
    }
}
