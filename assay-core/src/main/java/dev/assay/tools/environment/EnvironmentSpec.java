package dev.assay.tools.environment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A case's environment, as its {@code environment} field gives it: {@code {"mcp": {"command": [...]}, "state":
 * "shop://db"}}, with the case's {@code initial_actions}. Immutable.
 *
 * @param command the stdio MCP server's program and arguments; relative paths in it resolve in {@code directory}
 * @param state the URI of the resource whose text (JSON) is the environment's state
 * @param directory the case file's directory: the server's working directory, shown read-only inside a sandbox
 * @param initialActions the tool calls that set up each fresh environment of the case, in order, before the agent (or
 *     the gold actions of a state comparison) acts on it: τ²-bench's {@code initialization_actions}
 */
public record EnvironmentSpec(List<String> command, String state, Path directory, List<Action> initialActions) {
    /** The case field that names an environment. */
    public static final String FIELD = "environment";
    /** The case field that lists the calls setting up each fresh environment of the case. */
    public static final String INITIAL_ACTIONS = "initial_actions";

    /**
     * One call of an environment's tool.
     *
     * @param name the tool's name, as the environment gives it
     * @param arguments its arguments, an object
     */
    public record Action(String name, JsonNode arguments) {
        public Action {
            Objects.requireNonNull(name, "name");
            arguments = arguments.deepCopy();
        }
    }

    public EnvironmentSpec {
        command = List.copyOf(command);
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(directory, "directory");
        initialActions = List.copyOf(initialActions);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("an environment needs a command");
        }
    }

    /** An environment that starts as its server makes it. */
    public EnvironmentSpec(List<String> command, String state, Path directory) {
        this(command, state, directory, List.of());
    }

    /**
     * {@return the environment a case's {@code environment} field names, if it names one}: the field as the case reader
     * validated it, with the directory of the case file it was read from
     *
     * @param field the case's {@code environment} field; null or JSON null when it has none
     * @param initialActions the case's {@code initial_actions} field, as the case reader validated it; null for none
     * @param caseFile the case file's path
     */
    public static Optional<EnvironmentSpec> of(JsonNode field, JsonNode initialActions, String caseFile) {
        if (field == null || field.isNull()) {
            return Optional.empty();
        }
        var command = new ArrayList<String>();
        field.path("mcp").path("command").forEach(part -> command.add(part.asText()));
        Path file = Path.of(caseFile).toAbsolutePath().normalize();
        Path directory = file.getParent() == null ? file : file.getParent();
        var actions = new ArrayList<Action>();
        if (initialActions != null) {
            initialActions.forEach(action -> actions.add(new Action(
                    action.path("name").asText(),
                    action.path("arguments").isObject() ? action.path("arguments") : Json.object())));
        }
        return Optional.of(new EnvironmentSpec(command, field.path("state").asText(), directory, actions));
    }
}
