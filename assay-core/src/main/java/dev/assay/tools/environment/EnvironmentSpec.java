package dev.assay.tools.environment;

import com.fasterxml.jackson.databind.JsonNode;
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
     * {@return the environment a case's {@code environment} field names, if it names one}: the field as the case reader
     * validated it, with the directory of the case file it was read from
     *
     * @param field the case's {@code environment} field; null or JSON null when it has none
     * @param caseFile the case file's path
     */
    public static Optional<EnvironmentSpec> of(JsonNode field, String caseFile) {
        if (field == null || field.isNull()) {
            return Optional.empty();
        }
        var command = new ArrayList<String>();
        field.path("mcp").path("command").forEach(part -> command.add(part.asText()));
        Path file = Path.of(caseFile).toAbsolutePath().normalize();
        Path directory = file.getParent() == null ? file : file.getParent();
        return Optional.of(new EnvironmentSpec(command, field.path("state").asText(), directory));
    }
}
