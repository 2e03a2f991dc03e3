package dev.assay.tools.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.List;

/**
 * Common frame of the built-in tools: name, description, the schema built from {@link Param}s, and the one place where
 * anything that went wrong becomes a failed {@link ToolResult}, so no tool throws for model input.
 */
abstract class BuiltinTool implements Tool {
    /** Cap on the text any built-in tool returns to the model. */
    static final int OUTPUT_CAP_BYTES = 64 * 1024;

    private final String name;
    private final String description;
    private final ObjectNode parameters;

    BuiltinTool(String name, String description, List<Param> params) {
        this.name = name;
        this.description = description;
        this.parameters = schema(params);
    }

    /** One argument as the schema describes it. */
    record Param(String name, String type, String description, boolean required) {
        static Param required(String name, String type, String description) {
            return new Param(name, type, description, true);
        }

        static Param optional(String name, String type, String description) {
            return new Param(name, type, description, false);
        }
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final JsonNode parameters() {
        return parameters.deepCopy();
    }

    @Override
    public final ToolResult call(JsonNode arguments, Workspace workspace) throws InterruptedException {
        try {
            return run(new Arguments(arguments), workspace);
        } catch (AssayException e) {
            return ToolResult.failed(e.problem());
        } catch (IOException e) {
            return ToolResult.failed(ioError(e, workspace));
        } catch (UncheckedIOException e) {
            return ToolResult.failed(ioError(e.getCause(), workspace));
        } catch (InvalidPathException e) {
            return ToolResult.failed(Problem.of("tool.invalid_args", "not a valid path: " + e.getInput()));
        }
    }

    /**
     * {@return the I/O failure in plain words, naming the file relative to the workspace: the exception's own text
     * names the host path of the workspace and is worded for Java programmers}
     */
    private static Problem ioError(IOException e, Workspace workspace) {
        if (!(e instanceof FileSystemException failure)) {
            return Problem.of("file.io_error", workspace.hideRoot(String.valueOf(e.getMessage())));
        }
        String reason = switch (failure) {
            case NoSuchFileException missing -> "no such file or directory";
            case AccessDeniedException denied -> "permission denied";
            case FileAlreadyExistsException exists -> "already exists";
            case DirectoryNotEmptyException notEmpty -> "the directory is not empty";
            case NotDirectoryException notDirectory -> "not a directory";
            default ->
                failure.getReason() == null ? "cannot be read or written" : workspace.hideRoot(failure.getReason());
        };
        if (failure.getFile() == null) {
            return Problem.of("file.io_error", reason);
        }
        String path = workspace.hideRoot(failure.getFile());
        return Problem.of("file.io_error", path + ": " + reason).withDetail("path", path);
    }

    /**
     * Does the work. Expected failures are returned as failed results or thrown as {@link AssayException} (as
     * {@link Workspace#resolve} and {@link Arguments} do); {@link #call} turns both into results.
     */
    abstract ToolResult run(Arguments arguments, Workspace workspace) throws IOException, InterruptedException;

    private static ObjectNode schema(List<Param> params) {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        var required = schema.putArray("required");
        for (Param param : params) {
            properties.putObject(param.name()).put("type", param.type()).put("description", param.description());
            if (param.required()) {
                required.add(param.name());
            }
        }
        schema.put("additionalProperties", false);
        return schema;
    }
}
