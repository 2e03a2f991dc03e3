package dev.assay.tools.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.tools.Workspace;
import java.nio.file.Path;
import java.util.OptionalDouble;

/**
 * Typed, forgiving access to the arguments object a model sent. Scalars are accepted where text is expected (models
 * write {@code "timeout_s": "60"} as often as {@code 60}); arguments not in the schema are ignored. A missing or
 * unusable argument throws {@code tool.invalid_args} naming it, which {@link BuiltinTool} returns as a failed result.
 */
public final class Arguments {
    private final JsonNode node;

    Arguments(JsonNode node) {
        this.node = node == null ? Json.object() : node;
    }

    /** {@return a required text argument; numbers and booleans are taken as their text} */
    String string(String name) {
        JsonNode value = present(name);
        if (!value.isValueNode()) {
            throw invalid(name, "argument '" + name + "' must be a string");
        }
        return value.asText();
    }

    /** {@return a required argument of any JSON type: strings as they are, anything else as JSON text} */
    String text(String name) {
        JsonNode value = present(name);
        return value.isTextual() ? value.asText() : Json.write(value);
    }

    /** {@return a required path argument, resolved inside the workspace} */
    Path path(String name, Workspace workspace) {
        return workspace.resolve(string(name));
    }

    /** {@return an optional path argument resolved inside the workspace; the workspace itself when absent} */
    Path optionalPath(String name, Workspace workspace) {
        return absent(name) ? workspace.root() : path(name, workspace);
    }

    /** {@return an optional number, also accepted as numeric text} */
    OptionalDouble optionalNumber(String name) {
        if (absent(name)) {
            return OptionalDouble.empty();
        }
        JsonNode value = node.get(name);
        if (value.isNumber()) {
            return OptionalDouble.of(value.asDouble());
        }
        if (value.isTextual()) {
            try {
                return OptionalDouble.of(Double.parseDouble(value.asText().strip()));
            } catch (NumberFormatException e) {
                // reported below, like any other non-number
            }
        }
        throw invalid(name, "argument '" + name + "' must be a number");
    }

    private boolean absent(String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull();
    }

    private JsonNode present(String name) {
        if (absent(name)) {
            throw invalid(name, "missing required argument '" + name + "'");
        }
        return node.get(name);
    }

    static AssayException invalid(String name, String message) {
        return new AssayException(Problem.of("tool.invalid_args", message).withDetail("argument", name));
    }
}
