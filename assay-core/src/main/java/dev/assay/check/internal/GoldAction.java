package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One action of an environment's task, as τ²-bench writes it: a tool's name and the arguments it is called with.
 * Immutable.
 *
 * @param name the tool's name, as the environment gives it
 * @param arguments the arguments
 * @param compareArgs the argument names {@code actions_called} compares; null for every name in {@code arguments}
 */
record GoldAction(String name, ObjectNode arguments, List<String> compareArgs) {
    /** τ²-bench's other fields of an action, accepted so its actions can be copied as they are, and not used. */
    private static final Set<String> KEYS =
            Set.of("name", "arguments", "compare_args", "action_id", "requestor", "info");

    GoldAction {
        arguments = arguments.deepCopy();
        compareArgs = compareArgs == null ? null : List.copyOf(compareArgs);
    }

    /**
     * {@return the actions of the option {@code field}: a list of {@code {name, arguments}}, empty only where
     * {@code mayBeEmpty} (no action at all: the state must stay as it was)}
     */
    static List<GoldAction> list(String checker, String field, JsonNode value, boolean mayBeEmpty) {
        if (value == null || !value.isArray() || (value.isEmpty() && !mayBeEmpty)) {
            throw Expected.of(checker, value)
                    .invalid(field, (mayBeEmpty ? "a list" : "a non-empty list") + " of {name, arguments}", value);
        }
        var actions = new ArrayList<GoldAction>();
        for (int index = 0; index < value.size(); index++) {
            String at = field + "[" + index + "]";
            var action = Expected.of(checker, value.get(index));
            if (!action.isObject()) {
                throw action.invalid(at, "an object {name, arguments}", value.get(index));
            }
            action.onlyKeys(KEYS);
            String name = action.text(at + ".name", action.field("name"));
            JsonNode arguments = action.field("arguments");
            if (arguments != null && !arguments.isObject()) {
                throw action.invalid(at + ".arguments", "an object", arguments);
            }
            JsonNode compare = action.field("compare_args");
            List<String> compareArgs = null;
            if (compare != null) {
                if (!compare.isArray()) {
                    throw action.invalid(at + ".compare_args", "a list of argument names", compare);
                }
                compareArgs = new ArrayList<>();
                for (JsonNode argument : compare) {
                    compareArgs.add(action.text(at + ".compare_args[]", argument));
                }
            }
            actions.add(new GoldAction(name, arguments == null ? Json.object() : (ObjectNode) arguments, compareArgs));
        }
        return List.copyOf(actions);
    }

    /**
     * {@return whether a call of {@code tool} with {@code called} is this action}: the same name, and each compared
     * argument equal as JSON (numbers by value); arguments not compared may be anything
     */
    boolean matches(String tool, JsonNode called) {
        if (!name.equals(tool)) {
            return false;
        }
        List<String> compared = compareArgs != null ? compareArgs : names(arguments);
        for (String argument : compared) {
            JsonNode expected = arguments.get(argument);
            JsonNode actual = called == null ? null : called.get(argument);
            if (expected == null ? actual != null : actual == null || !JsonDifferences.equal(expected, actual)) {
                return false;
            }
        }
        return true;
    }

    ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("name", name);
        node.set("arguments", arguments.deepCopy());
        if (compareArgs != null) {
            node.set("compare_args", Json.tree(compareArgs));
        }
        return node;
    }

    private static List<String> names(ObjectNode object) {
        var names = new ArrayList<String>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
