package dev.assay.config.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.assay.AssayException;
import dev.assay.EnvNames;
import dev.assay.Problem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One value of the parsed file with its JSON-pointer path, read with typed accessors that fail with
 * {@code config.invalid} naming the file, the line (from the YAML parser's locations) and the dotted field.
 */
public final class ConfigNode {
    public static final String INVALID = "config.invalid";

    private final JsonNode node;
    private final String pointer;
    private final Path file;
    private final Map<String, Integer> lines;

    public ConfigNode(JsonNode node, String pointer, Path file, Map<String, Integer> lines) {
        this.node = node == null ? MissingNode.getInstance() : node;
        this.pointer = pointer;
        this.file = file;
        this.lines = lines;
    }

    public JsonNode json() {
        return node;
    }

    public boolean isPresent() {
        return !node.isMissingNode() && !node.isNull();
    }

    public ConfigNode get(String name) {
        return new ConfigNode(
                node.get(name), pointer + "/" + name.replace("~", "~0").replace("/", "~1"), file, lines);
    }

    public ConfigNode element(int index) {
        return new ConfigNode(node.get(index), pointer + "/" + index, file, lines);
    }

    /** Rejects keys outside {@code known}: a misspelt option must not be silently ignored. */
    public ConfigNode onlyKeys(Set<String> known) {
        if (isPresent()) {
            requireObject();
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!known.contains(name)) {
                    throw get(name)
                            .invalid("unknown field; known: "
                                    + known.stream().sorted().toList());
                }
            }
        }
        return this;
    }

    public ConfigNode requireObject() {
        if (!node.isObject()) {
            throw invalid("must be a mapping");
        }
        return this;
    }

    /** {@return the entries of a mapping (empty when absent), in file order} */
    public Map<String, ConfigNode> entries() {
        var entries = new LinkedHashMap<String, ConfigNode>();
        if (isPresent()) {
            requireObject();
            node.fieldNames().forEachRemaining(name -> entries.put(name, get(name)));
        }
        return entries;
    }

    public String text(String defaultValue) {
        if (!isPresent()) {
            return defaultValue;
        }
        if (!node.isTextual() && !node.isNumber() && !node.isBoolean()) {
            throw invalid("must be a string");
        }
        return node.asText();
    }

    public String requiredText() {
        String value = text(null);
        if (value == null || value.isBlank()) {
            throw invalid("is required");
        }
        return value;
    }

    /** {@return an environment variable's NAME; a value that looks like a secret is refused by the secret scan} */
    public String envName(String defaultValue) {
        String value = text(defaultValue);
        if (value != null && !EnvNames.isName(value)) {
            throw invalid("must be the NAME of an environment variable (letters, digits, '_'), got '"
                    + abbreviate(value) + "'");
        }
        return value;
    }

    public List<String> texts() {
        var values = new ArrayList<String>();
        if (!isPresent()) {
            return values;
        }
        if (!node.isArray()) {
            throw invalid("must be a list");
        }
        for (int i = 0; i < node.size(); i++) {
            values.add(element(i).requiredText());
        }
        return values;
    }

    public Integer integer(int min) {
        if (!isPresent()) {
            return null;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber() || node.asInt() < min) {
            throw invalid("must be a whole number >= " + min);
        }
        return node.asInt();
    }

    public Double number() {
        if (!isPresent()) {
            return null;
        }
        if (!node.isNumber()) {
            throw invalid("must be a number");
        }
        return node.asDouble();
    }

    public Boolean flag() {
        if (!isPresent()) {
            return null;
        }
        if (!node.isBoolean()) {
            throw invalid("must be true or false");
        }
        return node.asBoolean();
    }

    public Duration seconds() {
        Double value = number();
        if (value == null) {
            return null;
        }
        if (value <= 0 || value.isInfinite()) {
            throw invalid("must be a number of seconds > 0");
        }
        return Duration.ofMillis(Math.round(value * 1000));
    }

    public <T> T parsed(Function<String, T> parse, String what) {
        String value = text(null);
        if (value == null) {
            return null;
        }
        try {
            return parse.apply(value);
        } catch (RuntimeException e) {
            throw invalid("must be " + what + ", got '" + value + "'");
        }
    }

    /** Wraps a domain validation failure (an {@link AssayException} from a record) with this node's location. */
    public <T> T located(java.util.function.Supplier<T> build) {
        try {
            return build.get();
        } catch (AssayException e) {
            throw invalid(e.problem().message());
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    public String field() {
        return pointer.isEmpty()
                ? "(document)"
                : pointer.substring(1).replace('/', '.').replace("~1", "/").replace("~0", "~");
    }

    /** {@return the line of this field, or of the nearest enclosing field the parser saw; 0 when unknown} */
    int line() {
        for (String path = pointer; ; path = path.substring(0, path.lastIndexOf('/'))) {
            Integer line = lines.get(path);
            if (line != null) {
                return line;
            }
            if (path.isEmpty()) {
                return 0;
            }
        }
    }

    public AssayException invalid(String message) {
        return invalid(INVALID, message);
    }

    public AssayException invalid(String type, String message) {
        int line = line();
        return new AssayException(Problem.of(type, file + (line > 0 ? ":" + line : "") + ": " + field() + " " + message)
                .withDetail("file", file.toString())
                .withDetail("line", line)
                .withDetail("field", field()));
    }

    static String abbreviate(String value) {
        return value.length() <= 6 ? "***" : value.substring(0, 3) + "***";
    }

    static String lower(String text) {
        return text.toLowerCase(Locale.ROOT);
    }
}
