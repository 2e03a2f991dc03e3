package dev.assay.cases.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.Check;
import dev.assay.cases.CheckValidator;
import dev.assay.cases.DatasetMapping;
import dev.assay.cases.DatasetRow;
import dev.assay.cases.SourceRef;
import dev.assay.template.Template;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns the rows of one dataset file into cases by a {@link DatasetMapping} (docs/datasets.md), collecting every
 * problem of a row, each naming the file, the row's line (its number for a format without lines) and the field.
 * Thread-safe (immutable; the checkers' validation is).
 */
public final class RowReader {
    private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

    private final DatasetMapping mapping;
    private final String file;
    private final String idPrefix;
    private final String dimension;
    private final CheckValidator registry;
    private final Set<String> mapped;

    /**
     * @param mapping how rows become cases, validated
     * @param file the file as problems name it
     * @param idPrefix put before a row's number when it is the id: empty for a run's only file, else the file's name
     *     and a colon, so two files' rows keep distinct ids
     * @param dimension the cases' dimension
     * @param registry the checkers that validate each row's expected answer
     */
    public RowReader(DatasetMapping mapping, String file, String idPrefix, String dimension, CheckValidator registry) {
        this.mapping = mapping;
        this.file = file;
        this.idPrefix = idPrefix;
        this.dimension = dimension;
        this.registry = registry;
        var fields = new HashSet<String>(mapping.choices());
        for (String field : new String[] {mapping.inputField(), mapping.expectedField(), mapping.idField()}) {
            if (field != null) {
                fields.add(field);
            }
        }
        this.mapped = Set.copyOf(fields);
    }

    /** {@return the case the row maps to, or its problems} */
    public CaseReader.Result read(DatasetRow row) {
        return new Row(row).read();
    }

    /** The options of a multiple-choice row: their texts, the labels the row gives them (if any), their letters. */
    private record Options(List<String> texts, List<String> labels, String letters) {
        String block() {
            var lines = new StringBuilder();
            for (int i = 0; i < texts.size(); i++) {
                lines.append(i == 0 ? "" : "\n")
                        .append(letters.charAt(i))
                        .append(". ")
                        .append(texts.get(i));
            }
            return lines.toString();
        }
    }

    /** One row being read, with its problems. */
    private final class Row {
        private final DatasetRow row;
        private final ObjectNode fields;
        private final List<CaseProblem> problems = new ArrayList<>();
        private String caseId;

        Row(DatasetRow row) {
            this.row = row;
            this.fields = row.fields();
            this.caseId = idPrefix + row.number();
        }

        CaseReader.Result read() {
            String id = id();
            Options options = mapping.choices().isEmpty() ? null : options();
            String prompt = prompt(options);
            JsonNode expected = expected(options);
            var check = new Check(mapping.checkerName(), mapping.expected(expected), 1.0);
            if (problems.isEmpty()) {
                validate(check);
            }
            if (!problems.isEmpty()) {
                return new CaseReader.Result(null, id, problems);
            }
            ObjectNode attributes = Json.object();
            fields.properties().forEach(field -> {
                if (!mapped.contains(field.getKey())) {
                    attributes.set(field.getKey(), field.getValue());
                }
            });
            var evalCase = new Case(
                    id,
                    dimension,
                    "",
                    prompt,
                    1.0,
                    null,
                    List.of(check),
                    List.of(),
                    List.of(),
                    Map.of(),
                    attributes,
                    source());
            return new CaseReader.Result(evalCase, id, List.of());
        }

        private String id() {
            String field = mapping.idField();
            if (field == null) {
                return caseId;
            }
            JsonNode value = fields.get(field);
            if (value == null || value.isNull()) {
                missing(field);
                return "";
            }
            String text =
                    value.isTextual() ? value.textValue().strip() : value.isIntegralNumber() ? value.asText() : "";
            if (text.isEmpty()) {
                add(
                        "case.invalid_field",
                        field,
                        "the id field `" + field + "` is " + CaseReader.describe(value),
                        "a non-empty " + "string or a whole number");
                return "";
            }
            caseId = text;
            return text;
        }

        private String prompt(Options options) {
            String prompt;
            if (mapping.template() != null) {
                Map<String, Object> vars = new LinkedHashMap<>();
                fields.properties().forEach(field -> vars.put(field.getKey(), field.getValue()));
                if (options != null) {
                    vars.put("options", options.block());
                }
                try {
                    prompt = Template.render(mapping.template(), vars);
                } catch (AssayException e) {
                    add(e.problem().type(), "template", e.problem().message(), "a template over the row's fields");
                    return "";
                }
            } else {
                prompt = text(mapping.inputField());
                if (prompt == null) {
                    return "";
                }
            }
            if (prompt.isBlank()) {
                add(
                        "case.invalid_field",
                        mapping.template() != null ? "template" : mapping.inputField(),
                        "the prompt is empty",
                        "a non-empty prompt");
                return "";
            }
            // The options follow the prompt, unless a template placed them itself ({{options}}).
            return options == null || prompt.contains(options.block()) ? prompt : prompt + "\n\n" + options.block();
        }

        /** {@return the field's value as text (a number or a boolean as written)}; null, with a problem, otherwise */
        private String text(String field) {
            JsonNode value = fields.get(field);
            if (value == null || value.isNull()) {
                missing(field);
                return null;
            }
            if (value.isValueNode()) {
                return value.asText();
            }
            add(
                    "case.invalid_field",
                    field,
                    "`" + field + "` is " + CaseReader.describe(value) + ", not text",
                    "text; a template (--template) can write a prompt from a list or an object");
            return null;
        }

        private Options options() {
            List<String> names = mapping.choices();
            var texts = new ArrayList<String>();
            var labels = new ArrayList<String>();
            if (names.size() == 1) {
                String field = names.getFirst();
                JsonNode value = fields.get(field);
                if (value == null || value.isNull()) {
                    missing(field);
                    return null;
                }
                if (value.isTextual() && value.textValue().strip().startsWith("[")) {
                    // A list written in a CSV cell.
                    try {
                        value = Json.MAPPER.readTree(value.textValue());
                    } catch (JsonProcessingException e) {
                        add(
                                "case.invalid_field",
                                field,
                                "`" + field + "` is not a JSON list: " + e.getOriginalMessage(),
                                "a list of options");
                        return null;
                    }
                }
                if (value.isObject() && value.path("text").isArray()) {
                    value.path("label").forEach(label -> labels.add(label.asText()));
                    value = value.path("text");
                }
                if (!value.isArray() || !addTexts(value, texts)) {
                    add(
                            "case.invalid_field",
                            field,
                            "`" + field + "` is " + CaseReader.describe(value) + ", not a list of options",
                            "a list of options, or an object with a `text` list (and `label`s)");
                    return null;
                }
            } else {
                for (String field : names) {
                    String text = text(field);
                    if (text == null) {
                        return null;
                    }
                    texts.add(text);
                }
            }
            String field = String.join(",", names);
            if (texts.size() < 2 || texts.size() > LETTERS.length()) {
                add("case.invalid_field", field, "the row has " + texts.size() + " option(s)", "2 to 26 options");
                return null;
            }
            if (!labels.isEmpty() && labels.size() != texts.size()) {
                add(
                        "case.invalid_field",
                        field,
                        "the options have " + labels.size() + " label(s) for " + texts.size() + " text(s)",
                        "one label per option");
                return null;
            }
            return new Options(texts, labels, LETTERS.substring(0, texts.size()));
        }

        private JsonNode expected(Options options) {
            String field = mapping.expectedField();
            if (field == null) {
                return null;
            }
            JsonNode value = fields.get(field);
            if (value == null || value.isNull()) {
                missing(field);
                return null;
            }
            if (!mapping.choices().isEmpty()) {
                if (options == null) {
                    return null;
                }
                String letter = letter(value, options);
                if (letter == null) {
                    add(
                            "case.invalid_field",
                            field,
                            "`" + field + "` is " + CaseReader.describe(value) + ", which names none of the "
                                    + options.texts().size() + " options",
                            "a letter of " + options.letters() + ", an option's label or text, or its 0-based index");
                    return null;
                }
                ObjectNode expected = Json.object();
                expected.put("answer", letter);
                expected.put("letters", options.letters());
                return expected;
            }
            return value.isNumber() || value.isBoolean() ? TextNode.valueOf(value.asText()) : value;
        }

        /** {@return the letter of the option the target names: a letter, a label, an option's text or an index} */
        private String letter(JsonNode value, Options options) {
            if (value.isIntegralNumber()) {
                int index = value.asInt(-1);
                return index >= 0 && index < options.texts().size()
                        ? options.letters().substring(index, index + 1)
                        : null;
            }
            if (!value.isTextual()) {
                return null;
            }
            String text = value.textValue().strip();
            String upper = text.toUpperCase(Locale.ROOT);
            if (upper.length() == 1 && options.letters().contains(upper)) {
                return upper;
            }
            int at = options.labels().indexOf(text);
            if (at < 0) {
                at = options.texts().indexOf(text);
            }
            if (at < 0 && text.matches("[0-9]{1,2}")) {
                at = Integer.parseInt(text);
            }
            return at >= 0 && at < options.texts().size() ? options.letters().substring(at, at + 1) : null;
        }

        private void validate(Check check) {
            String field = mapping.expectedField() != null ? mapping.expectedField() : "checker";
            try {
                registry.validate(check);
            } catch (AssayException e) {
                Object expected = e.problem().details().get("expected");
                add(e.problem().type(), field, e.problem().message(), expected == null ? "" : String.valueOf(expected));
            } catch (RuntimeException e) {
                // A factory that lets its own exception escape still must not stop the whole load.
                add("check.invalid_expected", field, String.valueOf(e.getMessage()), "");
            }
        }

        private static boolean addTexts(JsonNode list, List<String> texts) {
            for (JsonNode element : list) {
                if (!element.isValueNode() || element.isNull()) {
                    return false;
                }
                texts.add(element.asText());
            }
            return true;
        }

        private void missing(String field) {
            add(
                    "case.missing_field",
                    field,
                    "row " + row.number() + " has no `" + field + "`",
                    "the field `" + field + "`");
        }

        private void add(String type, String field, String message, String expected) {
            problems.add(new CaseProblem(type, source(), caseId, field, message, expected));
        }

        private SourceRef source() {
            return new SourceRef(file, (int) (row.line() > 0 ? row.line() : row.number()));
        }
    }
}
