package dev.assay.code.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads values as problem statements write them: JSON, plus the Python spellings ({@code True}, {@code None}, single
 * quotes, tuples) and trailing commas. Also splits argument lists on top-level commas (ASCII or full-width), minding
 * brackets and quotes. Stateless and thread-safe.
 */
final class Literals {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String text;
    private int pos;

    private Literals(String text) {
        this.text = text;
    }

    /**
     * {@return the value the whole text spells}
     *
     * @throws IllegalArgumentException with a reason when the text is not one literal
     */
    static JsonNode parse(String text) {
        var reader = new Literals(text.strip());
        if (reader.text.isEmpty()) {
            throw new IllegalArgumentException("empty value");
        }
        JsonNode value = reader.value();
        reader.skipSpace();
        if (reader.pos != reader.text.length()) {
            throw new IllegalArgumentException("unexpected text after value at offset " + reader.pos + ": "
                    + abbreviate(reader.text.substring(reader.pos)));
        }
        return value;
    }

    /** {@return the pieces between top-level {@code ,} or {@code ，}; blank pieces (a trailing comma) dropped} */
    static List<String> splitTopLevel(String text) {
        var pieces = new ArrayList<String>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '[' || c == '{' || c == '(') {
                depth++;
            } else if (c == ']' || c == '}' || c == ')') {
                depth--;
            } else if ((c == ',' || c == '，') && depth == 0) {
                pieces.add(text.substring(start, i));
                start = i + 1;
            }
        }
        pieces.add(text.substring(start));
        return pieces.stream()
                .map(String::strip)
                .filter(piece -> !piece.isEmpty())
                .toList();
    }

    private JsonNode value() {
        skipSpace();
        if (pos >= text.length()) {
            throw new IllegalArgumentException("value ends early");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '[' -> sequence(']');
            case '(' -> sequence(')');
            case '{' -> object();
            case '"', '\'' -> NODES.textNode(string(c));
            default -> c == '-' || c == '+' || c == '.' || Character.isDigit(c) ? number() : word();
        };
    }

    private ArrayNode sequence(char close) {
        pos++;
        ArrayNode array = NODES.arrayNode();
        while (true) {
            skipSpace();
            if (peek(close)) {
                pos++;
                return array;
            }
            array.add(value());
            skipSpace();
            if (peek(',') || peek('，')) {
                pos++;
            } else if (!peek(close)) {
                throw new IllegalArgumentException("expected ',' or '" + close + "' at offset " + pos);
            }
        }
    }

    private ObjectNode object() {
        pos++;
        ObjectNode object = NODES.objectNode();
        while (true) {
            skipSpace();
            if (peek('}')) {
                pos++;
                return object;
            }
            JsonNode key = value();
            skipSpace();
            if (!peek(':')) {
                throw new IllegalArgumentException("expected ':' at offset " + pos);
            }
            pos++;
            object.set(key.isTextual() ? key.textValue() : key.toString(), value());
            skipSpace();
            if (peek(',')) {
                pos++;
            } else if (!peek('}')) {
                throw new IllegalArgumentException("expected ',' or '}' at offset " + pos);
            }
        }
    }

    private String string(char quote) {
        pos++;
        var out = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == quote) {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (pos >= text.length()) {
                break;
            }
            char escaped = text.charAt(pos++);
            switch (escaped) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw new IllegalArgumentException("bad \\u escape");
                    }
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> out.append(escaped);
            }
        }
        throw new IllegalArgumentException("unterminated string");
    }

    private JsonNode number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE_".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String raw = text.substring(start, pos).replace("_", "");
        try {
            if (raw.matches("[+-]?\\d+")) {
                var big = new BigInteger(raw);
                if (big.bitLength() < 32) {
                    return NODES.numberNode(big.intValue());
                }
                return big.bitLength() < 64 ? NODES.numberNode(big.longValue()) : NODES.numberNode(big);
            }
            return NODES.numberNode(new BigDecimal(raw).doubleValue());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: " + raw);
        }
    }

    private JsonNode word() {
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
            pos++;
        }
        String word = text.substring(start, pos);
        return switch (word) {
            case "true", "True" -> NODES.booleanNode(true);
            case "false", "False" -> NODES.booleanNode(false);
            case "null", "None" -> NODES.nullNode();
            default ->
                throw new IllegalArgumentException(
                        word.isEmpty()
                                ? "unexpected character '" + text.charAt(start) + "' at offset " + start
                                : "not a literal: " + abbreviate(word));
        };
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }
}
