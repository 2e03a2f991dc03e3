package dev.assay.promptfoo;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Yaml;
import dev.assay.cases.Case;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.Check;
import dev.assay.check.promptfoo.PromptfooAssertions;
import dev.assay.template.Template;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A config's cases: the product tests × var combinations × providers × prompts in promptfoo's order (tests outer, then
 * each combination of the vars whose values are lists, then providers, then prompts), each prompt rendered with its
 * test's vars. Each case is bound to its provider by label ({@link Case#SUBJECT_LABEL}) and carries its vars
 * ({@code vars}), its rendered prompt ({@code prompt_rendered}) and where it stands in promptfoo's matrix
 * ({@code promptfoo}); each assertion is a check of the {@code promptfoo} checker. Stateless.
 */
public final class PromptfooCases {
    /** The checker that judges promptfoo's assertions. */
    public static final String CHECKER = "promptfoo";

    /** Assertion types whose {@code value} is code, never rendered as a template. */
    private static final Set<String> CODE_TYPES = Set.of("javascript", "python");

    /** The longest prompt label a dimension shows. */
    private static final int LABEL_CHARS = 60;

    private static final TypeReference<Map<String, Object>> VARS = new TypeReference<>() {};

    private PromptfooCases() {}

    /**
     * The cases of a config and what stands in the way of running some of them.
     *
     * @param cases every case, in promptfoo's order
     * @param problems templates that do not render and vars files that do not read, each naming its test
     * @param unsupported by case id, why the checker cannot judge some of its assertions (the type Assay does not have,
     *     named): such a case is skipped, never passed
     */
    public record Built(List<Case> cases, List<CaseProblem> problems, Map<String, List<String>> unsupported) {
        public Built {
            cases = List.copyOf(cases);
            problems = List.copyOf(problems);
            unsupported = Map.copyOf(unsupported);
        }
    }

    /** {@return the cases of {@code config}} */
    public static Built of(PromptfooConfig config) {
        var cases = new ArrayList<Case>();
        var problems = new ArrayList<CaseProblem>();
        var unsupported = new LinkedHashMap<String, List<String>>();
        Path base = config.file().toAbsolutePath().getParent();
        int testIdx = 0;
        for (TestCase written : config.tests()) {
            TestCase test = written.over(config.defaultTest());
            for (ObjectNode vars : combinations(test.vars())) {
                ObjectNode loaded;
                try {
                    loaded = loadVars(vars, base);
                } catch (AssayException e) {
                    problems.add(
                            problem(test, "promptfoo.invalid_vars", e.problem().message()));
                    testIdx++;
                    continue;
                }
                Map<String, Object> bindings = Json.MAPPER.convertValue(loaded, VARS);
                int column = 0;
                for (Provider provider : config.providers()) {
                    for (Prompt prompt : config.prompts()) {
                        String raw = test.options().path("prefix").asText("")
                                + prompt.raw()
                                + test.options().path("suffix").asText("");
                        String rendered;
                        List<Check> checks;
                        try {
                            rendered = Template.render(raw, bindings);
                            checks = checks(test, bindings, base);
                        } catch (AssayException e) {
                            problems.add(problem(
                                    test, e.problem().type(), e.problem().message()));
                            column++;
                            continue;
                        }
                        String id = "t" + (testIdx + 1) + "-p" + (column + 1);
                        cases.add(new Case(
                                id,
                                "[" + provider.key() + "] " + shortLabel(prompt.label()),
                                "",
                                rendered,
                                1.0,
                                null,
                                checks,
                                List.of(),
                                List.of(),
                                Map.of(),
                                attributes(test, testIdx, column, prompt, provider, loaded, rendered, config),
                                test.source()));
                        List<String> reasons = unsupportedReasons(checks);
                        if (!reasons.isEmpty()) {
                            unsupported.put(id, reasons);
                        }
                        column++;
                    }
                }
                testIdx++;
            }
        }
        return new Built(cases, problems, unsupported);
    }

    private static ObjectNode attributes(
            TestCase test,
            int testIdx,
            int column,
            Prompt prompt,
            Provider provider,
            ObjectNode vars,
            String rendered,
            PromptfooConfig config) {
        ObjectNode attributes = Json.object();
        attributes.put(Case.SUBJECT_LABEL, provider.key());
        attributes.set("vars", vars);
        attributes.put("prompt_rendered", rendered);
        ObjectNode promptfoo = attributes.putObject("promptfoo");
        promptfoo.put("test_index", testIdx);
        promptfoo.put("prompt_index", column);
        promptfoo.put("prompt_raw", prompt.raw());
        promptfoo.put("prompt_label", prompt.label());
        promptfoo.put("provider_id", provider.reportedId());
        promptfoo.put("provider_label", provider.label());
        promptfoo.put("description", test.description());
        promptfoo.put("test", test.key());
        promptfoo.put("config", config.file().toString());
        promptfoo.set("options", test.options());
        ArrayNode asserts = promptfoo.putArray("assert");
        test.asserts().forEach(asserts::add);
        if (test.threshold() != null) {
            promptfoo.put("threshold", test.threshold());
        }
        return attributes;
    }

    /**
     * {@return the checks of a test}: one per assertion with the assertion's weight, its value rendered with the vars
     * (code excepted); under a test {@code threshold}, one {@code assert-set} holding them all with that threshold; a
     * test without assertions is one empty {@code assert-set}, which passes as promptfoo's test without assertions does
     */
    static List<Check> checks(TestCase test, Map<String, Object> vars, Path base) {
        var rendered = new ArrayList<JsonNode>();
        test.asserts().forEach(assertion -> rendered.add(render(assertion, vars, base)));
        if (test.threshold() != null || rendered.isEmpty()) {
            ObjectNode set = Json.object();
            set.put("type", "assert-set");
            if (test.threshold() != null) {
                set.put("threshold", test.threshold());
            }
            ArrayNode inner = set.putArray("assert");
            rendered.forEach(inner::add);
            return List.of(check(set));
        }
        return rendered.stream().map(PromptfooCases::check).toList();
    }

    /** {@return the check of one assertion, in the {@code promptfoo} checker's shape} */
    static Check check(JsonNode assertion) {
        ObjectNode expected = Json.object();
        expected.set("assertion", assertion);
        double weight =
                assertion.path("weight").isNumber() ? assertion.path("weight").asDouble() : 1.0;
        return new Check(CHECKER, expected, weight);
    }

    /** {@return the assertion with its value (and its set's assertions') rendered with {@code vars}} */
    private static JsonNode render(JsonNode assertion, Map<String, Object> vars, Path base) {
        ObjectNode copy = assertion.deepCopy();
        String type = copy.path("type").asText();
        String baseType = type.startsWith("not-") ? type.substring(4) : type;
        if (copy.has("value") && !CODE_TYPES.contains(baseType)) {
            copy.set("value", renderValue(copy.get("value"), vars, base));
        }
        if (copy.path("assert").isArray()) {
            ArrayNode inner = Json.MAPPER.createArrayNode();
            copy.path("assert").forEach(nested -> inner.add(render(nested, vars, base)));
            copy.set("assert", inner);
        }
        return copy;
    }

    private static JsonNode renderValue(JsonNode value, Map<String, Object> vars, Path base) {
        if (value.isTextual()) {
            String text = Template.render(value.textValue(), vars);
            return text.startsWith(PromptfooConfig.FileRefs.PREFIX) ? fileValue(text, base) : TextNode.valueOf(text);
        }
        if (value.isArray()) {
            ArrayNode out = Json.MAPPER.createArrayNode();
            value.forEach(element -> out.add(renderValue(element, vars, base)));
            return out;
        }
        if (value.isObject()) {
            ObjectNode out = Json.object();
            value.properties().forEach(field -> out.set(field.getKey(), renderValue(field.getValue(), vars, base)));
            return out;
        }
        return value;
    }

    /**
     * {@return why the checker cannot judge some of {@code checks}, once each}: an assertion type Assay does not have
     * (its own or one inside an {@code assert-set}), or a form of a supported type it does not run
     */
    static List<String> unsupportedReasons(List<Check> checks) {
        return checks.stream()
                .map(check ->
                        PromptfooAssertions.unsupportedReason(check.expected().path("assertion")))
                .flatMap(Optional::stream)
                .distinct()
                .toList();
    }

    /**
     * {@return each combination of the vars, as promptfoo expands them}: a var whose value is a list gives one
     * combination per element, in order, the first var's outermost
     */
    static List<ObjectNode> combinations(ObjectNode vars) {
        List<ObjectNode> combos = new ArrayList<>();
        combos.add(Json.object());
        for (var field : vars.properties()) {
            var next = new ArrayList<ObjectNode>();
            List<JsonNode> values = new ArrayList<>();
            if (field.getValue().isArray() && !field.getValue().isEmpty()) {
                field.getValue().forEach(values::add);
            } else {
                values.add(field.getValue());
            }
            for (ObjectNode combo : combos) {
                for (JsonNode value : values) {
                    ObjectNode extended = combo.deepCopy();
                    extended.set(field.getKey(), value);
                    next.add(extended);
                }
            }
            combos = next;
        }
        return combos;
    }

    /** {@return the vars with each {@code file://} value read: text as text, JSON and YAML parsed} */
    static ObjectNode loadVars(ObjectNode vars, Path base) {
        ObjectNode out = Json.object();
        vars.properties().forEach(field -> {
            JsonNode value = field.getValue();
            out.set(
                    field.getKey(),
                    PromptfooConfig.FileRefs.isReference(value) ? fileValue(value.textValue(), base) : value);
        });
        return out;
    }

    /** {@return what a {@code file://} value holds, as promptfoo reads a var's or an assertion's file} */
    private static JsonNode fileValue(String reference, Path base) {
        String written = PromptfooConfig.FileRefs.written(reference);
        String lower = written.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".js") || lower.endsWith(".py") || lower.contains(".py:") || lower.contains(".js:")) {
            // A function file: promptfoo runs it; the checker is given the reference as written.
            return TextNode.valueOf(reference);
        }
        Path path = base.resolve(written).normalize();
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw AssayException.of("promptfoo.file_unreadable", "cannot read " + path + ": " + e.getMessage());
        }
        try {
            if (lower.endsWith(".json")) {
                return Json.MAPPER.readTree(text);
            }
            if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
                return Yaml.MAPPER.readTree(text);
            }
        } catch (IOException e) {
            throw AssayException.of("promptfoo.file_unreadable", path + " does not parse: " + e.getMessage());
        }
        return TextNode.valueOf(text);
    }

    private static String shortLabel(String label) {
        String line = label.strip().replaceAll("\\s+", " ");
        return line.length() <= LABEL_CHARS ? line : line.substring(0, LABEL_CHARS - 1) + "…";
    }

    private static CaseProblem problem(TestCase test, String type, String message) {
        return new CaseProblem(type, test.source(), "", test.key(), message, "");
    }
}
