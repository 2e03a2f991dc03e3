package dev.assay.dialog.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes JSON as the reference implementation's {@code json.dumps(..., ensure_ascii=False)} does (", " and ": "
 * separators, or indent 2; floats in Python's repr), so that the same inputs give byte-identical files and files
 * comparable byte for byte with the recorded runs. Thread-safe (stateless).
 */
public final class PythonJson {
    private PythonJson() {}

    /** {@return the value on one line, like {@code json.dumps(value, ensure_ascii=False)}} */
    public static String line(JsonNode value) {
        var out = new StringBuilder();
        write(out, value, -1, 0);
        return out.toString();
    }

    /** {@return the value indented by two spaces, like {@code json.dumps(value, ensure_ascii=False, indent=2)}} */
    public static String indented(JsonNode value) {
        var out = new StringBuilder();
        write(out, value, 2, 0);
        return out.toString();
    }

    private static void write(StringBuilder out, JsonNode node, int indent, int depth) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            out.append("null");
        } else if (node.isObject()) {
            if (node.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append('{');
            Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
            boolean first = true;
            while (fields.hasNext()) {
                var field = fields.next();
                separate(out, first, indent, depth + 1);
                first = false;
                string(out, field.getKey());
                out.append(": ");
                write(out, field.getValue(), indent, depth + 1);
            }
            close(out, indent, depth, '}');
        } else if (node.isArray()) {
            if (node.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                separate(out, i == 0, indent, depth + 1);
                write(out, node.get(i), indent, depth + 1);
            }
            close(out, indent, depth, ']');
        } else if (node.isTextual()) {
            string(out, node.textValue());
        } else if (node.isBoolean()) {
            out.append(node.booleanValue() ? "true" : "false");
        } else if (node.isIntegralNumber()) {
            out.append(node.bigIntegerValue());
        } else if (node.isNumber()) {
            out.append(repr(node.doubleValue()));
        } else {
            string(out, node.asText());
        }
    }

    private static void separate(StringBuilder out, boolean first, int indent, int depth) {
        if (!first) {
            out.append(indent < 0 ? ", " : ",");
        }
        if (indent >= 0) {
            out.append('\n').append(" ".repeat(indent * depth));
        }
    }

    private static void close(StringBuilder out, int indent, int depth, char bracket) {
        if (indent >= 0) {
            out.append('\n').append(" ".repeat(indent * depth));
        }
        out.append(bracket);
    }

    private static void string(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /**
     * Python's {@code repr(float)}: the shortest digits that round-trip (as Java's {@code Double.toString} since JDK
     * 19), in fixed notation for decimal exponents -4..15 and scientific ({@code 1e-05}) outside.
     */
    static String repr(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "Infinity" : "-Infinity";
        }
        if (value == 0.0) {
            return (1 / value < 0) ? "-0.0" : "0.0";
        }
        var decimal = new BigDecimal(Double.toString(Math.abs(value))).stripTrailingZeros();
        String digits = decimal.unscaledValue().toString();
        int exponent = digits.length() - decimal.scale() - 1;
        String sign = value < 0 ? "-" : "";
        if (exponent < -4 || exponent >= 16) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String exp = String.format("%02d", Math.abs(exponent));
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + exp;
        }
        String plain = decimal.toPlainString();
        return sign + (plain.contains(".") ? plain : plain + ".0");
    }
}
