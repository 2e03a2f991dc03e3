package dev.assay.promptfoo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.SourceRef;
import dev.assay.promptfoo.PromptfooConfig.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One test of a config as written, before {@code defaultTest} is laid under it.
 *
 * @param index its position among the config's tests (0-based); -1 for {@code defaultTest}
 * @param description its {@code description}; empty when it has none
 * @param vars its {@code vars}, values as written ({@code file://} references not yet read)
 * @param asserts its assertions (promptfoo's `assert` key), each as written
 * @param threshold its {@code threshold}: the share of the weighted score the test needs instead of every assertion
 *     passing; null when it has none
 * @param options its {@code options} ({@code prefix}, {@code suffix}, ...); an empty object when none
 * @param source where it was read: the config, or a tests file and its line
 * @param key how a message names it: {@code tests[2]}, {@code tests.csv line 4}
 */
public record TestCase(
        int index,
        String description,
        ObjectNode vars,
        List<JsonNode> asserts,
        Double threshold,
        ObjectNode options,
        SourceRef source,
        String key) {
    /** No test at all: what a config without {@code defaultTest} lays under its tests, and without tests runs once. */
    public static final TestCase EMPTY =
            new TestCase(-1, "", null, List.of(), null, null, SourceRef.UNKNOWN, "defaultTest");

    public TestCase {
        description = description == null ? "" : description;
        vars = vars == null ? Json.object() : vars.deepCopy();
        asserts = List.copyOf(asserts);
        options = options == null ? Json.object() : options.deepCopy();
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(key, "key");
    }

    /** {@return this test at position {@code newIndex}} */
    TestCase at(int newIndex) {
        return new TestCase(newIndex, description, vars, asserts, threshold, options, source, key);
    }

    /**
     * {@return this test over {@code defaults}, as promptfoo lays {@code defaultTest} under each test}: vars and
     * options merged key by key (the test's win), the default's assertions first, the test's threshold else the
     * default's
     */
    public TestCase over(TestCase defaults) {
        ObjectNode mergedVars = defaults.vars.deepCopy();
        mergedVars.setAll(vars);
        ObjectNode mergedOptions = defaults.options.deepCopy();
        mergedOptions.setAll(options);
        var mergedAsserts = new ArrayList<>(defaults.asserts);
        mergedAsserts.addAll(asserts);
        return new TestCase(
                index,
                description,
                mergedVars,
                mergedAsserts,
                threshold != null ? threshold : defaults.threshold,
                mergedOptions,
                source,
                key);
    }

    /** The keys of a test Assay honours; {@code metadata} only describes it. */
    private static final Set<String> HONOURED =
            Set.of("description", "vars", "assert", "threshold", "options", "metadata");

    /**
     * The options of a test Assay honours: {@code prefix} and {@code suffix} shape the prompt, {@code runSerially} only
     * orders calls; the others ({@code transform}, a grader {@code provider}, {@code rubricPrompt}...) change verdicts.
     */
    private static final Set<String> HONOURED_OPTIONS = Set.of("prefix", "suffix", "runSerially");

    /**
     * {@return the test {@code node} writes, or null after reporting why it is not one}; a key Assay does not honour is
     * reported, and the test is kept
     */
    static TestCase read(JsonNode node, int index, String key, SourceRef source, Context context) {
        if (!node.isObject()) {
            context.problemAt(source, "promptfoo.invalid_test", key, "a test is not a mapping", "{vars, assert, ...}");
            return null;
        }
        JsonNode vars = node.path("vars");
        if (!vars.isMissingNode() && !vars.isObject()) {
            context.problemAt(
                    source, "promptfoo.invalid_test", key + ".vars", "`vars` is not a mapping", "a mapping of names");
            return null;
        }
        JsonNode assertNode = node.path("assert");
        if (!assertNode.isMissingNode() && !assertNode.isNull() && !assertNode.isArray()) {
            context.problemAt(
                    source,
                    "promptfoo.invalid_test",
                    key + ".assert",
                    "`assert` is not a list",
                    "a list of assertions");
            return null;
        }
        var asserts = new ArrayList<JsonNode>();
        for (int i = 0; i < assertNode.size(); i++) {
            JsonNode assertion = assertNode.get(i);
            if (!assertion.isObject() || !assertion.path("type").isTextual()) {
                context.problemAt(
                        source,
                        "promptfoo.invalid_assertion",
                        key + ".assert[" + i + "]",
                        "an assertion has no `type`",
                        "{type, value, ...}");
                return null;
            }
            asserts.add(assertion);
        }
        JsonNode threshold = node.path("threshold");
        if (!threshold.isMissingNode() && !threshold.isNumber()) {
            context.problemAt(
                    source, "promptfoo.invalid_test", key + ".threshold", "`threshold` is not a number", "a number");
            return null;
        }
        context.unhonoured(node, HONOURED, "test", source, key);
        JsonNode options = node.path("options");
        if (options.isObject()) {
            context.unhonoured(options, HONOURED_OPTIONS, "test options", source, key + ".options");
        }
        return new TestCase(
                index,
                node.path("description").asText(""),
                vars.isObject() ? (ObjectNode) vars : null,
                asserts,
                threshold.isNumber() ? threshold.asDouble() : null,
                options.isObject() ? (ObjectNode) options : null,
                source,
                key);
    }
}
