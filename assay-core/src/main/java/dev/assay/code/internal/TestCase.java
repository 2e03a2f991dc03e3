package dev.assay.code.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.code.Example;
import java.util.Objects;

/**
 * One test a candidate program is run against.
 *
 * @param label where it came from ({@code Example 1}, {@code test 3}); never blank
 * @param input argument name to value; positional ones named {@code #0}, {@code #1}...; for a design problem
 *     {@code operations} and {@code arguments}
 * @param expected the expected result (for a design problem, the list of method results); JSON null allowed
 * @param design whether the input is a class-design operation list
 */
public record TestCase(String label, ObjectNode input, JsonNode expected, boolean design) {
    public TestCase {
        Objects.requireNonNull(label, "label");
        input = input == null ? Json.object() : input.deepCopy();
        expected = expected == null ? NullNode.getInstance() : expected;
    }

    public static TestCase of(Example example) {
        return new TestCase(example.label(), example.input(), example.expected(), example.design());
    }

    public TestCase withExpected(JsonNode newExpected) {
        return new TestCase(label, input, newExpected, design);
    }
}
