package dev.assay.promptfoo;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.assay.Yaml;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.SourceRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A promptfoo config as read from its file ({@code promptfooconfig.yaml}): its prompts, providers and tests, with
 * {@code file://} references read relative to the config's directory, as promptfoo reads them (docs/promptfoo.md).
 * Nothing is rendered or run here. Every problem names the file and the key (or the CSV line) it was found at; a key
 * with a problem contributes nothing, the others are kept. Immutable.
 *
 * @param file the config file
 * @param description the config's {@code description}; empty when it has none
 * @param prompts the prompts in order
 * @param providers the providers in order
 * @param defaultTest what every test starts from ({@code defaultTest}); an empty test when there is none
 * @param tests the tests in order, each as written (before {@code defaultTest} is laid under it)
 * @param problems what was wrong, in the order found
 */
public record PromptfooConfig(
        Path file,
        String description,
        List<Prompt> prompts,
        List<Provider> providers,
        TestCase defaultTest,
        List<TestCase> tests,
        List<CaseProblem> problems) {
    /** The names promptfoo looks for in a directory. */
    public static final List<String> FILE_NAMES =
            List.of("promptfooconfig.yaml", "promptfooconfig.yml", "promptfooconfig.json");

    /** The keys this reader knows; any other top-level key is reported, so nothing is silently ignored. */
    private static final Set<String> KNOWN_KEYS = Set.of(
            "description",
            "prompts",
            "providers",
            "targets",
            "tests",
            "defaultTest",
            "scenarios",
            "evaluateOptions",
            "commandLineOptions",
            "outputPath",
            "sharing",
            "env",
            "nunjucksFilters",
            "derivedMetrics",
            "extensions",
            "metadata",
            "tags",
            "redteam",
            "tracing",
            "writeLatestResults");

    /** Keys promptfoo has that change what runs, which Assay does not do: reported, never silently ignored. */
    private static final Set<String> UNSUPPORTED_KEYS =
            Set.of("scenarios", "nunjucksFilters", "derivedMetrics", "extensions", "redteam", "env");

    /**
     * The {@code evaluateOptions} Assay honours: they only pace the run. The others ({@code repeat},
     * {@code timeoutMs}...) change what runs.
     */
    private static final Set<String> HONOURED_EVALUATE_OPTIONS = Set.of("maxConcurrency", "showProgressBar", "cache");

    /** The {@code commandLineOptions} Assay honours: they only shape what the command prints. */
    private static final Set<String> HONOURED_COMMAND_LINE_OPTIONS =
            Set.of("verbose", "table", "tableCellMaxLength", "progressBar", "write", "share", "cache");

    public PromptfooConfig {
        Objects.requireNonNull(file, "file");
        description = description == null ? "" : description;
        prompts = List.copyOf(prompts);
        providers = List.copyOf(providers);
        Objects.requireNonNull(defaultTest, "defaultTest");
        tests = List.copyOf(tests);
        problems = List.copyOf(problems);
    }

    /** {@return the config file {@code path} names: the file itself, or the one a directory holds; null for none} */
    public static Path configFile(Path path) {
        if (Files.isDirectory(path)) {
            return FILE_NAMES.stream()
                    .map(path::resolve)
                    .filter(Files::isRegularFile)
                    .findFirst()
                    .orElse(null);
        }
        return Files.isRegularFile(path) ? path : null;
    }

    /**
     * {@return whether {@code file} is a promptfoo config}: named as promptfoo names one, or, under any name
     * ({@code my-evals.yaml}), a YAML/JSON mapping with two of {@code prompts}, {@code providers} (or {@code targets})
     * and {@code tests}, and no {@code cases}
     */
    public static boolean isConfig(Path file) {
        String name =
                file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (FILE_NAMES.contains(name)) {
            return true;
        }
        if (!(name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json"))) {
            return false;
        }
        // Only the top-level keys are read, their values skipped: a large case file is not parsed whole to say no.
        var keys = new HashSet<String>();
        try (JsonParser parser = Yaml.MAPPER.getFactory().createParser(file.toFile())) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                keys.add(parser.currentName());
                parser.nextToken();
                parser.skipChildren();
            }
        } catch (IOException | RuntimeException notYaml) {
            return false;
        }
        // Two of promptfoo's three parts make a config (no case file has them), so that one missing part is reported by
        // this reader (promptfoo.missing_providers) rather than as keys a case file does not know.
        int parts = (keys.contains("prompts") ? 1 : 0)
                + (keys.contains("providers") || keys.contains("targets") ? 1 : 0)
                + (keys.contains("tests") ? 1 : 0);
        return parts >= 2 && !keys.contains("cases");
    }

    /** {@return the config in {@code file}, with every problem found; a file that does not parse is one problem} */
    public static PromptfooConfig read(Path file) {
        var reader = new Reader(file);
        return reader.read();
    }

    /** Reads one config; not thread-safe, used once. */
    private static final class Reader implements Context {
        private final Path file;
        private final Path base;
        private final List<CaseProblem> problems = new ArrayList<>();
        /** The unsupported keys named so far, by kind and field: each is named once per config. */
        private final Set<String> named = new HashSet<>();

        Reader(Path file) {
            this.file = file;
            Path parent = file.toAbsolutePath().getParent();
            this.base = parent == null ? Path.of(".") : parent;
        }

        PromptfooConfig read() {
            JsonNode root;
            try {
                root = Yaml.MAPPER.readTree(file.toFile());
            } catch (IOException | RuntimeException e) {
                problem("promptfoo.parse_error", "", "the config does not parse: " + e.getMessage(), "YAML or JSON");
                return empty();
            }
            if (root == null || !root.isObject()) {
                problem("promptfoo.invalid_config", "", "the config is not a mapping", "a mapping of keys");
                return empty();
            }
            root.fieldNames().forEachRemaining(key -> {
                if (!KNOWN_KEYS.contains(key)) {
                    problem("promptfoo.unknown_key", key, "promptfoo has no key `" + key + "`", "a promptfoo key");
                } else if (UNSUPPORTED_KEYS.contains(key)) {
                    problem(
                            "promptfoo.unsupported_key",
                            key,
                            "`" + key + "` is not supported by Assay (docs/promptfoo.md)",
                            "a supported key");
                }
            });
            if (root.path("evaluateOptions").isObject()) {
                unhonoured(
                        root.path("evaluateOptions"),
                        HONOURED_EVALUATE_OPTIONS,
                        "evaluateOptions",
                        source(),
                        "evaluateOptions");
            }
            if (root.path("commandLineOptions").isObject()) {
                unhonoured(
                        root.path("commandLineOptions"),
                        HONOURED_COMMAND_LINE_OPTIONS,
                        "commandLineOptions",
                        source(),
                        "commandLineOptions");
            }
            List<Prompt> prompts = Prompts.read(root.path("prompts"), this);
            JsonNode providerNode = root.has("providers") ? root.path("providers") : root.path("targets");
            List<Provider> providers =
                    Provider.readAll(providerNode, root.has("providers") ? "providers" : "targets", this);
            TestCase defaultTest = root.has("defaultTest")
                    ? TestCase.read(
                            root.path("defaultTest"), -1, "defaultTest", new SourceRef(file.toString(), 0), this)
                    : TestCase.EMPTY;
            List<TestCase> tests = Tests.read(root.path("tests"), this);
            return new PromptfooConfig(
                    file, root.path("description").asText(""), prompts, providers, defaultTest, tests, problems);
        }

        private PromptfooConfig empty() {
            return new PromptfooConfig(file, "", List.of(), List.of(), TestCase.EMPTY, List.of(), problems);
        }

        @Override
        public void problem(String type, String key, String message, String expected) {
            problems.add(new CaseProblem(type, new SourceRef(file.toString(), 0), "", key, message, expected));
        }

        @Override
        public void problemAt(SourceRef source, String type, String key, String message, String expected) {
            problems.add(new CaseProblem(type, source, "", key, message, expected));
        }

        @Override
        public void unhonoured(JsonNode node, Set<String> honoured, String kind, SourceRef source, String key) {
            node.fieldNames().forEachRemaining(field -> {
                if (!honoured.contains(field) && named.add(kind + "\u0000" + field)) {
                    problemAt(
                            source,
                            "promptfoo.unsupported_key",
                            key + "." + field,
                            "the " + kind + " key `" + field + "` is not supported by Assay (docs/promptfoo.md)",
                            "only " + String.join(", ", new TreeSet<>(honoured)));
                }
            });
        }

        @Override
        public SourceRef source() {
            return new SourceRef(file.toString(), 0);
        }

        /** {@return the file a {@code file://} reference names, relative to the config's directory} */
        @Override
        public Path resolve(String reference) {
            String path =
                    reference.startsWith(FileRefs.PREFIX) ? reference.substring(FileRefs.PREFIX.length()) : reference;
            return base.resolve(path).normalize();
        }

        /** {@return the text of a referenced file; null after reporting a problem at {@code key}} */
        @Override
        public String text(String reference, String key) {
            Path path = resolve(reference);
            try {
                return Files.readString(path, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                problem(
                        "promptfoo.file_unreadable",
                        key,
                        "cannot read " + path + ": " + e.getMessage(),
                        "a readable file");
                return null;
            }
        }
    }

    /** {@code file://} references as promptfoo writes them. */
    static final class FileRefs {
        static final String PREFIX = "file://";

        private FileRefs() {}

        static boolean isReference(JsonNode node) {
            return node.isTextual() && node.textValue().startsWith(PREFIX);
        }

        /** {@return the path as the config wrote it, for labels} */
        static String written(String reference) {
            return reference.startsWith(PREFIX) ? reference.substring(PREFIX.length()) : reference;
        }
    }

    /** What the classes that read parts of a config share: the config's directory, and the problems found. */
    interface Context {
        void problem(String type, String key, String message, String expected);

        void problemAt(SourceRef source, String type, String key, String message, String expected);

        SourceRef source();

        Path resolve(String reference);

        String text(String reference, String key);

        /**
         * Reports each field of {@code node} outside {@code honoured} as {@code promptfoo.unsupported_key} at
         * {@code key.FIELD}, once per config for each {@code kind} and field (the first test with
         * {@code options.transform} names it for all), so that a key which would change what runs is never silently
         * ignored
         *
         * @param kind what {@code node} is ({@code test}, {@code options}, {@code provider config}), for the message
         */
        void unhonoured(JsonNode node, Set<String> honoured, String kind, SourceRef source, String key);
    }

    /** {@return {@code node} as a list: itself when it is one, a list of it otherwise, empty when missing} */
    static List<JsonNode> listOf(JsonNode node) {
        var out = new ArrayList<JsonNode>();
        if (node == null || node.isMissingNode() || node.isNull()) {
            return out;
        }
        if (node instanceof ArrayNode array) {
            array.forEach(out::add);
        } else {
            out.add(node);
        }
        return out;
    }
}
