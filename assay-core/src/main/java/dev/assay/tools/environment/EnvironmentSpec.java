package dev.assay.tools.environment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.cases.Case;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A case's environment, as its {@code environment} field gives it: {@code {"mcp": {"command": [...]}, "state":
 * "shop://db"}}. Immutable.
 *
 * @param command the stdio MCP server's program and arguments; relative paths in it resolve in {@code directory}
 * @param state the URI of the resource whose text (JSON) is the environment's state
 * @param directory the case file's directory: the server's working directory, shown read-only inside a sandbox
 */
public record EnvironmentSpec(List<String> command, String state, Path directory) {
    /** The case field that names an environment. */
    public static final String FIELD = "environment";

    public EnvironmentSpec {
        command = List.copyOf(command);
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(directory, "directory");
        if (command.isEmpty()) {
            throw new IllegalArgumentException("an environment needs a command");
        }
    }

    /**
     * {@return the environment the case names, if it names one}: its {@code environment} field, which the case reader
     * validated, with the case file's directory
     */
    public static Optional<EnvironmentSpec> of(Case evalCase) {
        JsonNode node = evalCase.attributes().get(FIELD);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        var command = new ArrayList<String>();
        node.path("mcp").path("command").forEach(part -> command.add(part.asText()));
        Path file = Path.of(evalCase.source().file()).toAbsolutePath().normalize();
        Path directory = file.getParent() == null ? file : file.getParent();
        return Optional.of(new EnvironmentSpec(command, node.path("state").asText(), directory));
    }
}
