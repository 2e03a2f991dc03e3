package dev.assay.code;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import java.util.Objects;

/**
 * One example found in a question's description, parsed or not.
 *
 * @param label the example's header as written, normalised ({@code Example 1}, {@code 示例 2}); never blank
 * @param input argument name to value; positional arguments are named {@code #0}, {@code #1}...; a design problem has
 *     {@code operations} and {@code arguments}; empty when the input did not parse
 * @param expected the stated output; JSON null when it did not parse (or is a literal null)
 * @param status whether the example can be used as a test
 * @param reason why not, when unsupported; empty when ok
 */
public record Example(String label, ObjectNode input, JsonNode expected, Status status, String reason) {
    /** Whether an example became a test. */
    public enum Status {
        OK,
        UNSUPPORTED;

        @JsonValue
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public Example {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(status, "status");
        input = input == null ? Json.object() : input.deepCopy();
        expected = expected == null ? NullNode.getInstance() : expected;
        reason = reason == null ? "" : reason;
    }

    public static Example ok(String label, ObjectNode input, JsonNode expected) {
        return new Example(label, input, expected, Status.OK, "");
    }

    public static Example unsupported(String label, String reason) {
        return new Example(label, null, null, Status.UNSUPPORTED, reason);
    }

    /** {@return whether the input is a class-design operation list with its argument list} */
    public boolean design() {
        return input.size() == 2
                && input.path("operations").isArray()
                && input.path("arguments").isArray();
    }
}
