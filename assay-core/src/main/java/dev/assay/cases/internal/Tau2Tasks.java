package dev.assay.cases.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * τ²-bench's task shape ({@code tasks.json} of a domain, sierra-research/tau2-bench {@code data_model/tasks.py}) read
 * as Assay cases: the user scenario becomes the case's simulated {@code user}, the evaluation criteria that the task's
 * {@code reward_basis} counts become checks ({@code state_matches}, {@code actions_called}, {@code told_user},
 * {@code judge}), and the domain's {@code policy.md} beside the file, when there is one, the agent's {@code system}.
 * docs/tau2.md gives the mapping field by field. Fields Assay does not use are collected in {@link #unused()}, so the
 * loader can name them once per file. One instance per file; not thread-safe.
 */
public final class Tau2Tasks {
    /** The fields of a task the mapping reads; any other is named in {@link #unused()}. */
    private static final Set<String> READ = Set.of("id", "user_scenario", "evaluation_criteria", "initial_state");

    private final String policy;
    private final Set<String> unused = new TreeSet<>();

    /** @param policy the domain's policy (its {@code policy.md}), the agent's system prompt; empty for none */
    public Tau2Tasks(String policy) {
        this.policy = policy;
    }

    /** {@return whether an entry is a τ²-bench task}: it has a {@code user_scenario} and no field of Assay's shape */
    public static boolean isTask(JsonNode entry) {
        return entry.isObject()
                && entry.has("user_scenario")
                && !entry.has("prompt")
                && !entry.has("checker")
                && !entry.has("checks");
    }

    /** {@return what the file's tasks held that the mapping does not use, as dotted paths, sorted; once each} */
    public Set<String> unused() {
        return unused;
    }

    /** {@return the case a task stands for, in Assay's case shape, for the case reader to check like any other} */
    public ObjectNode toCase(ObjectNode task) {
        task.properties().forEach(field -> {
            if (!READ.contains(field.getKey()) && !field.getValue().isNull() && !isEmptyDescription(field)) {
                unused.add(field.getKey());
            }
        });
        ObjectNode evalCase = Json.object();
        JsonNode id = task.get("id");
        evalCase.set(
                "id",
                id == null || id.isNull() ? null : Json.MAPPER.getNodeFactory().textNode(id.asText()));
        JsonNode scenario = task.path("user_scenario");
        String domain = scenario.path("instructions").path("domain").asText("");
        evalCase.put("dimension", CaseReader.DIMENSION.matcher(domain).matches() ? domain : "tau2");
        ArrayNode tags = evalCase.putArray("tags");
        tags.add("tau2");
        if (!domain.isEmpty()) {
            tags.add(domain);
        }
        if (!policy.isEmpty()) {
            evalCase.put("system", policy);
        }
        ObjectNode user = evalCase.putObject("user");
        user.put("instructions", instructions(scenario));
        evalCase.set("checks", checks(task.path("evaluation_criteria")));
        ArrayNode initialActions = initialActions(task.path("initial_state"));
        if (!initialActions.isEmpty()) {
            evalCase.set("initial_actions", initialActions);
        }
        return evalCase;
    }

    /**
     * The agent-side calls of τ²'s {@code initial_state.initialization_actions} ({@code env_type: assistant}), as the
     * case's {@code initial_actions}: called on each fresh environment through its MCP server, before the trial and
     * before the gold actions. The user's side, the data updates and a message history have no place in an MCP
     * environment; they are named unused.
     */
    private ArrayNode initialActions(JsonNode initialState) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        if (!initialState.isObject()) {
            return list;
        }
        initialState.properties().forEach(field -> {
            if (!field.getKey().equals("initialization_actions") && !isNullOrEmpty(field.getValue())) {
                unused.add("initial_state." + field.getKey());
            }
        });
        for (JsonNode call : initialState.path("initialization_actions")) {
            if (!"assistant".equals(call.path("env_type").asText())) {
                unused.add("initial_state.initialization_actions (env_type: "
                        + call.path("env_type").asText() + ")");
                continue;
            }
            ObjectNode action = Json.object();
            action.put("name", call.path("func_name").asText());
            action.set(
                    "arguments",
                    call.path("arguments").isObject() ? call.path("arguments").deepCopy() : Json.object());
            list.add(action);
        }
        return list;
    }

    /**
     * {@return whether a value holds nothing}: null, or a list or object of such values ({@code {"agent_data": null}})
     */
    private static boolean isNullOrEmpty(JsonNode value) {
        if (value.isContainerNode()) {
            for (JsonNode element : value) {
                if (!isNullOrEmpty(element)) {
                    return false;
                }
            }
            return true;
        }
        return value.isNull();
    }

    /** τ²'s {@code UserScenario.__str__}: the persona, then the instructions (structured ones field by field). */
    private String instructions(JsonNode scenario) {
        var text = new StringBuilder();
        String persona = scenario.path("persona").asText("");
        if (!persona.isEmpty()) {
            text.append("Persona:\n").append(indent(persona)).append('\n');
        }
        JsonNode instructions = scenario.path("instructions");
        String body;
        if (instructions.isObject()) {
            var lines = new ArrayList<String>();
            lines.add("Domain: " + instructions.path("domain").asText(""));
            section(lines, "Reason for call", instructions.path("reason_for_call"));
            section(lines, "Known info", instructions.path("known_info"));
            section(lines, "Unknown info", instructions.path("unknown_info"));
            section(lines, "Task instructions", instructions.path("task_instructions"));
            body = String.join("\n", lines);
        } else {
            body = instructions.asText("");
        }
        scenario.properties().forEach(field -> {
            if (!Set.of("persona", "instructions").contains(field.getKey())) {
                unused.add("user_scenario." + field.getKey());
            }
        });
        return text.append("Instructions:\n").append(indent(body)).toString();
    }

    private static void section(List<String> lines, String title, JsonNode value) {
        if (value.isTextual()) {
            lines.add(title + ":\n" + indent(value.textValue()));
        }
    }

    private static String indent(String text) {
        return "\t" + text.replace("\n", "\n\t");
    }

    /**
     * The checks of the criteria {@code reward_basis} counts (default {@code DB} and {@code COMMUNICATE}, as τ²'s);
     * criteria it does not count are named unused, since τ² computes them only for diagnostics.
     */
    private ArrayNode checks(JsonNode criteria) {
        ArrayNode checks = Json.MAPPER.createArrayNode();
        var basis = new TreeSet<String>();
        if (criteria.path("reward_basis").isArray()) {
            criteria.path("reward_basis").forEach(value -> basis.add(value.asText()));
        } else {
            basis.addAll(List.of("DB", "COMMUNICATE"));
        }
        JsonNode actions = criteria.path("actions");
        if (basis.contains("DB")) {
            checks.add(check("state_matches", "actions", gold(actions, false)));
        }
        if (basis.contains("ACTION") && actions.isArray() && !actions.isEmpty()) {
            checks.add(check("actions_called", "actions", gold(actions, true)));
        }
        JsonNode info = criteria.path("communicate_info");
        if (basis.contains("COMMUNICATE") && info.isArray() && !info.isEmpty()) {
            checks.add(check("told_user", "info", info.deepCopy()));
        } else if (info.isArray() && !info.isEmpty()) {
            unused.add("evaluation_criteria.communicate_info (not in reward_basis)");
        }
        JsonNode assertions = criteria.path("nl_assertions");
        if (basis.contains("NL_ASSERTION") && assertions.isArray()) {
            for (JsonNode assertion : assertions) {
                ObjectNode judge = Json.object();
                judge.put("rubric", assertion.asText());
                judge.put("scale", "pass_fail");
                ObjectNode check = Json.object();
                check.put("checker", "judge");
                check.set("expected", judge);
                checks.add(check);
            }
        } else if (assertions.isArray() && !assertions.isEmpty()) {
            unused.add("evaluation_criteria.nl_assertions (not in reward_basis)");
        }
        JsonNode envAssertions = criteria.path("env_assertions");
        if (envAssertions.isArray() && !envAssertions.isEmpty()) {
            unused.add("evaluation_criteria.env_assertions");
        }
        if (basis.contains("ENV_ASSERTION")) {
            unused.add("evaluation_criteria.reward_basis ENV_ASSERTION");
        }
        return checks;
    }

    /**
     * The gold actions as Assay's checks take them, {@code {name, arguments}}: all of them for the state check (τ²
     * replays them on a fresh environment), and for {@code actions_called} each with only its {@code compare_args} when
     * it names them (τ²'s {@code Action.compare_with_tool_call}). Actions the user takes ({@code requestor: user}) need
     * user tools, which Assay does not offer; they are named unused.
     */
    private ArrayNode gold(JsonNode actions, boolean compared) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        for (JsonNode action : actions) {
            if ("user".equals(action.path("requestor").asText("assistant"))) {
                unused.add("evaluation_criteria.actions (requestor: user)");
                continue;
            }
            ObjectNode gold = Json.object();
            gold.put("name", action.path("name").asText());
            ObjectNode arguments = action.path("arguments").isObject()
                    ? ((ObjectNode) action.path("arguments")).deepCopy()
                    : Json.object();
            if (compared && action.path("compare_args").isArray()) {
                var keep = new TreeSet<String>();
                action.path("compare_args").forEach(name -> keep.add(name.asText()));
                arguments.retain(keep);
            }
            gold.set("arguments", arguments);
            list.add(gold);
            action.properties().forEach(field -> {
                if (!Set.of("action_id", "requestor", "name", "arguments", "compare_args")
                                .contains(field.getKey())
                        && !field.getValue().isNull()) {
                    unused.add("evaluation_criteria.actions[]." + field.getKey());
                }
            });
        }
        return list;
    }

    private static ObjectNode check(String checker, String field, JsonNode value) {
        ObjectNode expected = Json.object();
        expected.set(field, value);
        ObjectNode check = Json.object();
        check.put("checker", checker);
        check.set("expected", expected);
        return check;
    }

    /** τ²'s files give every task a {@code description} whose fields are all null: nothing is left unused there. */
    private static boolean isEmptyDescription(java.util.Map.Entry<String, JsonNode> field) {
        if (!field.getKey().equals("description") || !field.getValue().isObject()) {
            return false;
        }
        for (JsonNode value : field.getValue()) {
            if (!value.isNull()) {
                return false;
            }
        }
        return true;
    }
}
