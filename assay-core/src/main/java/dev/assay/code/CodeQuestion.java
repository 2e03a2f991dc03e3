package dev.assay.code;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.code.internal.ExampleParser;
import dev.assay.code.internal.TestCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A code question as a case describes it.
 *
 * @param id the case id
 * @param description the question text (the case's prompt), where examples are parsed from
 * @param language {@code python} (default), {@code javascript} or {@code java}
 * @param entryPoint the function or method to call; empty when the code says (a single method/function)
 * @param testCases explicit tests ({@code test_cases}); empty means the description's examples are used
 * @param compare the stated comparison mode; empty to infer it
 * @param referenceSolution a solution known to be right; empty when none (needed by {@code compare: custom})
 * @param starterCode the signature given to the model; empty when none
 * @param testCode HumanEval-style test code defining {@code check(candidate)}; empty when none
 * @param checkerCode the question's own checker for problems with many valid answers: Python defining
 *     {@code check(input, output, expected)} that returns whether an output is valid (or {@code (valid, reason)});
 *     empty to compare with the expected values
 */
public record CodeQuestion(
        String id,
        String description,
        String language,
        String entryPoint,
        List<TestCase> testCases,
        String compare,
        String referenceSolution,
        String starterCode,
        String testCode,
        String checkerCode) {
    /** A question without a checker of its own. */
    public CodeQuestion(
            String id,
            String description,
            String language,
            String entryPoint,
            List<TestCase> testCases,
            String compare,
            String referenceSolution,
            String starterCode,
            String testCode) {
        this(id, description, language, entryPoint, testCases, compare, referenceSolution, starterCode, testCode, "");
    }

    public CodeQuestion {
        testCases = List.copyOf(testCases);
        description = nullToEmpty(description);
        language = normaliseLanguage(language);
        entryPoint = nullToEmpty(entryPoint);
        compare = nullToEmpty(compare);
        referenceSolution = nullToEmpty(referenceSolution);
        starterCode = nullToEmpty(starterCode);
        testCode = nullToEmpty(testCode);
        checkerCode = nullToEmpty(checkerCode);
    }

    /**
     * {@return the question of a case: its prompt and attributes, with grader-level options from the check's
     * {@code expected} (old format) used where the case says nothing}
     */
    public static CodeQuestion of(Case evalCase, JsonNode graderOptions) {
        ObjectNode attributes = evalCase.attributes();
        JsonNode options = graderOptions == null || !graderOptions.isObject() ? Json.object() : graderOptions;
        List<TestCase> tests = readTests(attributes.path("test_cases"));
        if (tests.isEmpty()) {
            tests = readTests(options.path("test_cases"));
        }
        return new CodeQuestion(
                evalCase.id(),
                evalCase.prompt(),
                text(attributes, options, "code_language", "language"),
                text(attributes, options, "entry_point"),
                tests,
                text(attributes, options, "compare"),
                text(attributes, options, "reference_solution"),
                text(attributes, options, "starter_code"),
                text(attributes, options, "test_code"),
                text(attributes, options, "checker_code"));
    }

    /** {@return explicit tests; {@code expected}, then {@code expected_output}, then {@code reference_answer}} */
    public static List<TestCase> readTests(JsonNode node) {
        if (!node.isArray()) {
            return List.of();
        }
        var tests = new ArrayList<TestCase>();
        int index = 1;
        for (JsonNode test : node) {
            JsonNode expected = firstPresent(test, "expected", "expected_output", "reference_answer");
            ObjectNode input = arguments(test.path("input"));
            boolean design = input.size() == 2
                    && input.path("operations").isArray()
                    && input.path("arguments").isArray();
            tests.add(new TestCase(test.path("label").asText("test " + index), input, expected, design));
            index++;
        }
        return tests;
    }

    private static JsonNode firstPresent(JsonNode test, String... fields) {
        for (String field : fields) {
            if (test.has(field)) {
                return test.get(field);
            }
        }
        throw AssayException.of(
                "check.invalid_expected", "a test case needs expected, expected_output or reference_answer: " + test);
    }

    /** An object is named arguments, an array the argument list, a string is read like an example's input line. */
    private static ObjectNode arguments(JsonNode input) {
        if (input.isObject()) {
            return (ObjectNode) input;
        }
        ObjectNode arguments = Json.object();
        if (input.isArray()) {
            for (int i = 0; i < input.size(); i++) {
                arguments.set("#" + i, input.get(i));
            }
        } else if (input.isTextual()) {
            try {
                return ExampleParser.parseArguments(input.textValue());
            } catch (IllegalArgumentException e) {
                throw AssayException.of("check.invalid_expected", "test input does not parse: " + e.getMessage());
            }
        } else if (!input.isMissingNode()) {
            arguments.set("#0", input);
        }
        return arguments;
    }

    private static String text(ObjectNode attributes, JsonNode options, String... names) {
        for (String name : names) {
            if (attributes.hasNonNull(name)) {
                return attributes.get(name).asText();
            }
        }
        for (String name : names) {
            if (options.hasNonNull(name)) {
                return options.get(name).asText();
            }
        }
        return "";
    }

    private static String nullToEmpty(String text) {
        return text == null ? "" : text;
    }

    private static String normaliseLanguage(String language) {
        String name = language == null || language.isBlank()
                ? "python"
                : language.strip().toLowerCase(Locale.ROOT);
        return Map.of("py", "python", "python3", "python", "js", "javascript", "node", "javascript")
                .getOrDefault(name, name);
    }

    /** {@return the examples parsed from the description} */
    public ParsedExamples examples() {
        return new ExampleParser().parse(description);
    }
}
