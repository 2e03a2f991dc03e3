package dev.assay.cases;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.internal.CaseReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the rows of a plain dataset become cases (docs/datasets.md): which field is the question, which the answer, how
 * the prompt is written, the options of a multiple-choice row, the id and the dimension. A source of a run's settings
 * (flags, the API's start body, the Java API, {@code assay.yaml}'s {@code datasets}) gives what it knows, each value
 * null where it is silent; {@link #over} lays one over another. Immutable.
 *
 * @param inputField the row's field that is the prompt; null when a {@code template} writes it
 * @param expectedField the row's field that is the expected answer (the check's {@code expected}); null for a checker
 *     that needs none
 * @param checker the checker by name; null for the multiple-choice checker when options are mapped, else {@code exact}
 * @param template a prompt template ({@code Q: {{question}}}) over the row's fields; null for the input field as it is
 * @param choices the field holding the options of a multiple-choice row (a list), or several fields, one option each;
 *     empty for none
 * @param idField the row's field that is the case id; null for the row's number
 * @param dimension the cases' dimension; null for the dataset's file name
 * @param checkerOptions the options of the checker's object form ({@code {"ignore_case": true}} for {@code exact}), the
 *     target put in beside them under the key the checker reads it from ({@link #expected}); null for none
 */
public record DatasetMapping(
        String inputField,
        String expectedField,
        String checker,
        String template,
        List<String> choices,
        String idField,
        String dimension,
        ObjectNode checkerOptions) {
    /** The fields of its JSON form (a snapshot, a start body's {@code dataset}, an {@code assay.yaml} entry). */
    public static final Set<String> FIELDS = Set.of(
            "input_field",
            "target_field",
            "checker",
            "template",
            "choices",
            "id_field",
            "dimension",
            "checker_options");

    /**
     * The key under which a checker's object form takes the row's target when the mapping gives it options: the
     * checker's main value ({@code exact}'s {@code answer}, {@code regex}'s {@code pattern}). {@code choice}'s target
     * is already an object ({@code answer}, {@code letters}) that the options join.
     */
    private static final Map<String, String> TARGET_KEYS = Map.of(
            "exact", "answer",
            "contains", "text",
            "regex", "pattern",
            "tool_called", "tool",
            "file_exists", "path",
            "file_contains", "text",
            "judge", "rubric");

    public DatasetMapping {
        choices = choices == null ? List.of() : List.copyOf(choices);
        checkerOptions = checkerOptions == null ? null : checkerOptions.deepCopy();
    }

    /** A mapping without checker options. */
    public DatasetMapping(
            String inputField,
            String expectedField,
            String checker,
            String template,
            List<String> choices,
            String idField,
            String dimension) {
        this(inputField, expectedField, checker, template, choices, idField, dimension, null);
    }

    /** {@return a mapping of the question's and the answer's fields, the rest unset} */
    public static DatasetMapping of(String inputField, String expectedField) {
        return new DatasetMapping(inputField, expectedField, null, null, null, null, null);
    }

    @Override
    public ObjectNode checkerOptions() {
        return checkerOptions == null ? null : checkerOptions.deepCopy();
    }

    public DatasetMapping withChecker(String name) {
        return new DatasetMapping(
                inputField, expectedField, name, template, choices, idField, dimension, checkerOptions);
    }

    public DatasetMapping withTemplate(String source) {
        return new DatasetMapping(
                inputField, expectedField, checker, source, choices, idField, dimension, checkerOptions);
    }

    public DatasetMapping withChoices(List<String> fields) {
        return new DatasetMapping(
                inputField, expectedField, checker, template, fields, idField, dimension, checkerOptions);
    }

    public DatasetMapping withIdField(String field) {
        return new DatasetMapping(
                inputField, expectedField, checker, template, choices, field, dimension, checkerOptions);
    }

    public DatasetMapping withDimension(String name) {
        return new DatasetMapping(inputField, expectedField, checker, template, choices, idField, name, checkerOptions);
    }

    /** {@return this mapping with the checker's options ({@code {"ignore_case": true}}); null for none} */
    public DatasetMapping withCheckerOptions(ObjectNode options) {
        return new DatasetMapping(inputField, expectedField, checker, template, choices, idField, dimension, options);
    }

    /**
     * {@return the check's {@code expected} for a row's target}: the target as it is without checker options; with
     * them, the options with the target under the checker's key ({@code answer} for {@code exact}, {@code text} for
     * {@code contains}, {@code pattern} for {@code regex}), or joined to {@code choice}'s object, or the options alone
     * when there is no target
     *
     * @param target the row's target, null when the mapping has no target field
     * @throws AssayException {@code dataset.invalid_mapping} (field {@code checker_options}) for a target and options
     *     of a checker whose key is not known
     */
    public JsonNode expected(JsonNode target) {
        if (checkerOptions == null) {
            return target;
        }
        ObjectNode expected = checkerOptions.deepCopy();
        if (target == null) {
            return expected;
        }
        if (target instanceof ObjectNode object) {
            expected.setAll(object);
            return expected;
        }
        String key = TARGET_KEYS.get(checkerName());
        if (key == null) {
            throw invalid(
                    "checker_options",
                    "the checker '" + checkerName() + "' takes checker_options only without a target field, the "
                            + "options then being its whole expected; with a target: "
                            + String.join(", ", new java.util.TreeSet<>(TARGET_KEYS.keySet())) + ", choice");
        }
        expected.set(key, target);
        return expected;
    }

    /**
     * {@return this mapping's values, each over {@code lower}'s where this one is silent}; {@code lower} may be null
     */
    public DatasetMapping over(DatasetMapping lower) {
        if (lower == null) {
            return this;
        }
        return new DatasetMapping(
                pick(inputField, lower.inputField),
                pick(expectedField, lower.expectedField),
                pick(checker, lower.checker),
                pick(template, lower.template),
                choices.isEmpty() ? lower.choices : choices,
                pick(idField, lower.idField),
                pick(dimension, lower.dimension),
                checkerOptions != null ? checkerOptions : lower.checkerOptions);
    }

    /** {@return the checker the cases get: the one named, else {@code choice} for options, else {@code exact}} */
    public String checkerName() {
        return checker != null ? checker : choices.isEmpty() ? "exact" : "choice";
    }

    /**
     * {@return this mapping, checked as a whole}
     *
     * @throws AssayException {@code dataset.invalid_mapping} naming the field: neither an input field nor a template, a
     *     blank field name, a dimension that is not a lower-case identifier
     */
    public DatasetMapping validate() {
        if (blank(inputField) && blank(template)) {
            throw invalid("input_field", "a dataset needs the field that is the prompt (--input-field) or a template");
        }
        for (String[] named : new String[][] {
            {"input_field", inputField}, {"target_field", expectedField}, {"checker", checker}, {"id_field", idField}
        }) {
            if (named[1] != null && named[1].isBlank()) {
                throw invalid(named[0], "`" + named[0] + "` is empty");
            }
        }
        if (choices.stream().anyMatch(String::isBlank)) {
            throw invalid("choices", "`choices` names an empty field");
        }
        String targetKey = TARGET_KEYS.get(checkerName());
        if (checkerOptions != null && expectedField != null && targetKey != null && checkerOptions.has(targetKey)) {
            throw invalid(
                    "checker_options." + targetKey,
                    "`checker_options` sets `" + targetKey + "`, which each row's target field (" + expectedField
                            + ") gives");
        }
        if (dimension != null && !CaseReader.DIMENSION.matcher(dimension).matches()) {
            throw invalid("dimension", "'" + dimension + "' is not a lower-case identifier such as common or gsm8k");
        }
        return this;
    }

    /** {@return this mapping as JSON: the fields it sets, by their {@link #FIELDS} names} */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        putIfSet(node, "input_field", inputField);
        putIfSet(node, "target_field", expectedField);
        putIfSet(node, "checker", checker);
        putIfSet(node, "template", template);
        if (!choices.isEmpty()) {
            node.set("choices", Json.strings(choices));
        }
        putIfSet(node, "id_field", idField);
        putIfSet(node, "dimension", dimension);
        if (checkerOptions != null) {
            node.set("checker_options", checkerOptions.deepCopy());
        }
        return node;
    }

    /**
     * {@return the mapping a JSON object writes}: {@link #FIELDS}, each a string; {@code choices} a string or a list of
     * strings
     *
     * @param prefix how the object is named in problems ({@code dataset})
     * @throws AssayException {@code dataset.invalid_mapping} naming the field ({@code dataset.choices})
     */
    public static DatasetMapping fromJson(JsonNode node, String prefix) {
        if (node == null || !node.isObject()) {
            throw invalid(prefix, "`" + prefix + "` must be an object with input_field, target_field, ...");
        }
        for (var field : node.properties()) {
            if (!FIELDS.contains(field.getKey())) {
                throw invalid(
                        prefix + "." + field.getKey(),
                        "unknown field '" + field.getKey() + "'; known: "
                                + String.join(", ", FIELDS.stream().sorted().toList()));
            }
        }
        var choices = new ArrayList<String>();
        JsonNode given = node.get("choices");
        if (given != null && given.isTextual()) {
            choices.add(given.textValue());
        } else if (given != null && !given.isNull()) {
            if (!given.isArray()) {
                throw invalid(prefix + ".choices", "`choices` must be a field name or a list of them");
            }
            for (JsonNode element : given) {
                if (!element.isTextual()) {
                    throw invalid(prefix + ".choices", "`choices` must be a field name or a list of them");
                }
                choices.add(element.textValue());
            }
        }
        return new DatasetMapping(
                text(node, "input_field", prefix),
                text(node, "target_field", prefix),
                text(node, "checker", prefix),
                text(node, "template", prefix),
                choices,
                text(node, "id_field", prefix),
                text(node, "dimension", prefix),
                checkerOptions(node, prefix));
    }

    private static ObjectNode checkerOptions(JsonNode node, String prefix) {
        JsonNode value = node.get("checker_options");
        if (value == null || value.isNull()) {
            return null;
        }
        if (!(value instanceof ObjectNode options)) {
            throw invalid(
                    prefix + ".checker_options",
                    "`checker_options` must be an object of the checker's options, e.g. {ignore_case: true}");
        }
        return options;
    }

    private static String text(JsonNode node, String field, String prefix) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw invalid(prefix + "." + field, "`" + field + "` must be a string");
        }
        return value.textValue();
    }

    private static void putIfSet(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static String pick(String higher, String lower) {
        return higher != null ? higher : lower;
    }

    private static AssayException invalid(String field, String message) {
        return new AssayException(Problem.of("dataset.invalid_mapping", message).withDetail("field", field));
    }
}
