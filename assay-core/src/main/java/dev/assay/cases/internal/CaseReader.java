package dev.assay.cases.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.Check;
import dev.assay.cases.CheckValidator;
import dev.assay.cases.DeclaredTools;
import dev.assay.cases.SimulatedUser;
import dev.assay.cases.SourceRef;
import dev.assay.internal.Spelling;
import dev.assay.internal.WorkspacePath;
import dev.assay.sandbox.ContainerSpec;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoublePredicate;
import java.util.regex.Pattern;

/**
 * Turns one raw case entry into a {@link Case}, collecting every problem rather than stopping at the first. One
 * instance per entry; not thread-safe.
 */
public final class CaseReader implements ReferenceFormat.Problems {
    public static final Pattern DIMENSION = Pattern.compile("[a-z][a-z0-9_]*");

    /** The most characters a check's {@code expected} may take written as JSON: 1 Mi, the cap on one stored text. */
    static final int LARGEST_EXPECTED = 1 << 20;

    /** Fields with a meaning of their own; everything else is kept in {@link Case#attributes()}. */
    private static final Set<String> FIELDS = Set.of(
            "id",
            "dimension",
            "language",
            "prompt",
            "weight",
            "timeout_s",
            "checker",
            "expected",
            "checks",
            "prerequisites",
            "tags",
            "files");

    private final ObjectNode node;
    private final CaseFile.Entry entry;
    private final String file;
    private final List<CaseProblem> problems = new ArrayList<>();
    private String caseId = "";

    /** Characters the case's {@code expected} values read so far take as JSON, up to past the cap. */
    private long expectedChars;

    /**
     * The outcome for one entry.
     *
     * @param evalCase the case; null when there were problems
     * @param caseId the entry's id when it has a usable one, else empty
     * @param problems everything wrong with the entry
     */
    public record Result(Case evalCase, String caseId, List<CaseProblem> problems) {
        public Result {
            problems = List.copyOf(problems);
        }
    }

    /** A check with the fields it came from, so a checker's complaint can name the right one. */
    private record Located(Check check, String checkerField, String expectedField) {}

    private CaseReader(CaseFile.Entry entry, String file) {
        this.node = (ObjectNode) entry.node();
        this.entry = entry;
        this.file = file;
    }

    public static Result read(CaseFile.Entry entry, String file, String fileLanguage, CheckValidator registry) {
        var source = new SourceRef(file, entry.line());
        if (!entry.node().isObject()) {
            return new Result(
                    null,
                    "",
                    List.of(new CaseProblem(
                            "case.invalid_shape",
                            source,
                            "",
                            "",
                            "the case is not an object",
                            "an object with id, dimension, prompt and a checker")));
        }
        return new CaseReader(entry, file).read(fileLanguage, registry);
    }

    private Result read(String fileLanguage, CheckValidator registry) {
        String id = text("id", true, "a non-empty string");
        if (id != null && !id.isBlank()) {
            caseId = id.strip();
        }
        String dimension = text("dimension", true, "a lower-case identifier such as tool, logic, common, complex");
        if (dimension != null && !DIMENSION.matcher(dimension).matches()) {
            add(
                    "case.invalid_field",
                    "dimension",
                    "'" + dimension + "' is not a lower-case identifier",
                    "a lower-case identifier such as tool, logic, common, complex, code");
        }
        String language = text("language", false, "a language tag like zh-CN");
        if (language != null
                && !language.isEmpty()
                && !CaseFile.LANGUAGE.matcher(language).matches()) {
            add(
                    "case.invalid_field",
                    "language",
                    "'" + language + "' is not a language tag",
                    "a language tag like zh-CN or en-US");
        }
        // A conversation case is started by its simulated user; a prompt is then optional.
        SimulatedUser.read(node, this);
        String prompt = text("prompt", !node.hasNonNull("user"), "a non-empty string");
        text("system", false, "the system prompt (the policy) as a string");
        double weight = number(node.get("weight"), "weight", 1.0, value -> value >= 0, "a number >= 0");
        double timeoutSeconds = number(node.get("timeout_s"), "timeout_s", 0, value -> value > 0, "a number > 0");
        List<Located> checks = checks();
        checks.stream().filter(this::withinCap).forEach(located -> validate(located, registry));
        List<String> prerequisites = strings("prerequisites");
        List<String> tags = strings("tags");
        Map<String, String> files = files();
        environment();
        DeclaredTools declared = DeclaredTools.read(node, this);
        JsonNode sandbox = node.get(ContainerSpec.FIELD);
        if (sandbox != null && !sandbox.isNull()) {
            try {
                ContainerSpec.parse(sandbox);
            } catch (AssayException e) {
                add(
                        "case.invalid_field",
                        String.valueOf(e.problem().details().getOrDefault("field", ContainerSpec.FIELD)),
                        e.problem().message(),
                        "{\"image\": \"name:tag\", \"workdir\": \"/repo\", \"network\": \"none\", "
                                + "\"memory_mb\": 1024, \"pids\": 256, \"cpus\": 1}");
            }
        }
        checks.forEach(located -> requireDeclaredForBfcl(located, declared));
        if (!problems.isEmpty()) {
            return new Result(null, caseId, problems);
        }
        ObjectNode attributes = Json.object();
        node.properties().forEach(field -> {
            if (!FIELDS.contains(field.getKey())) {
                attributes.set(field.getKey(), field.getValue().deepCopy());
            }
        });
        var evalCase = new Case(
                caseId,
                dimension,
                language == null || language.isEmpty() ? fileLanguage : language,
                prompt,
                weight,
                timeoutSeconds > 0 ? seconds(timeoutSeconds) : null,
                checks.stream().map(Located::check).toList(),
                prerequisites,
                tags,
                files,
                attributes,
                new SourceRef(file, entry.line()));
        return new Result(evalCase, caseId, List.of());
    }

    /** Adds a problem at the line of the field it names (the case's first line for a JSONL case). */
    @Override
    public void add(String type, String field, String message, String expected) {
        addAt(field, type, field, message, expected);
    }

    private void addAt(String lineOf, String type, String field, String message, String expected) {
        var at = new SourceRef(file, entry.lineOf(lineOf));
        problems.add(new CaseProblem(type, at, caseId, field, message, expected));
    }

    /**
     * Reports a missing field. When the case has an unknown field that is a near miss of one of {@code meant} (the typo
     * {@code promt}), the problem names it, at its line: a typo reported as a missing field alone sends the user
     * looking for a field that is there.
     */
    private void missing(String field, Set<String> meant, String message, String expected) {
        for (var property : node.properties()) {
            String name = property.getKey();
            if (!FIELDS.contains(name)) {
                var guess = Spelling.closest(name, FIELDS).filter(meant::contains);
                if (guess.isPresent()) {
                    addAt(
                            name,
                            "case.missing_field",
                            field,
                            "unknown field '" + name + "'; did you mean '" + guess.get() + "'?",
                            expected);
                    return;
                }
            }
        }
        add("case.missing_field", field, message, expected);
    }

    private String text(String field, boolean required, String expected) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                missing(field, Set.of(field), "the case has no `" + field + "`", expected);
            }
            return null;
        }
        if (!value.isTextual() || (required && value.textValue().isBlank())) {
            add("case.invalid_field", field, "`" + field + "` is " + describe(value), expected);
            return null;
        }
        return value.textValue();
    }

    private double number(JsonNode value, String field, double absent, DoublePredicate valid, String expected) {
        if (value == null || value.isNull()) {
            return absent;
        }
        if (!value.isNumber() || !Double.isFinite(value.doubleValue()) || !valid.test(value.doubleValue())) {
            add("case.invalid_field", field, "`" + field + "` is " + describe(value), expected);
            return absent;
        }
        return value.doubleValue();
    }

    private List<String> strings(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return List.of();
        }
        var result = new ArrayList<String>();
        if (value.isArray()) {
            value.forEach(element -> {
                if (element.isTextual() && !element.textValue().isBlank()) {
                    result.add(element.textValue().strip());
                }
            });
        }
        if (!value.isArray() || result.size() != value.size()) {
            add(
                    "case.invalid_field",
                    field,
                    "`" + field + "` is not a list of non-empty strings",
                    "a list of non-empty strings");
            return List.of();
        }
        return result;
    }

    private Map<String, String> files() {
        JsonNode value = node.get("files");
        if (value == null || value.isNull()) {
            return Map.of();
        }
        if (!value.isObject()) {
            add(
                    "case.invalid_field",
                    "files",
                    "`files` is " + describe(value),
                    "an object mapping relative paths to file contents");
            return Map.of();
        }
        var files = new LinkedHashMap<String, String>();
        value.properties().forEach(entry -> {
            String path = entry.getKey();
            // The workspace's own rules: a path that passes here is one the case's run can write.
            String notAFile = WorkspacePath.notAFile(path);
            if (notAFile != null) {
                add(
                        "case.invalid_field",
                        "files." + path,
                        "'" + path + "' is not a file's path inside the workspace: " + notAFile,
                        "a relative path without `..` that climbs out, naming a file, each name at most "
                                + WorkspacePath.LONGEST_NAME + " bytes");
            } else if (!entry.getValue().isTextual()) {
                add(
                        "case.invalid_field",
                        "files." + path,
                        "the content is " + describe(entry.getValue()),
                        "the file's text as a string");
            } else {
                files.put(path, entry.getValue().textValue());
            }
        });
        WorkspacePath.clashes(files.keySet())
                .forEach((path, clash) ->
                        add("case.invalid_field", "files." + path, clash, "paths of which none is inside another"));
        return files;
    }

    /**
     * Checks the shape of the case's environment (docs/environments.md): {@code {"mcp": {"command": [...]}, "state":
     * "uri"}}. It stays among the case's attributes, read where it is started.
     */
    private void environment() {
        JsonNode value = node.get("environment");
        initialActions(value == null || value.isNull());
        if (value == null || value.isNull()) {
            return;
        }
        String shape = "{\"mcp\": {\"command\": [\"program\", \"argument\", ...]}, \"state\": \"uri\"}";
        if (!value.isObject()) {
            add("case.invalid_field", "environment", "`environment` is " + describe(value), shape);
            return;
        }
        for (var field : value.properties()) {
            if (!Set.of("mcp", "state").contains(field.getKey())) {
                add("case.invalid_field", "environment." + field.getKey(), "unknown field", shape);
            }
        }
        JsonNode command = value.path("mcp").path("command");
        boolean commandOk = command.isArray() && !command.isEmpty();
        for (JsonNode part : command) {
            commandOk &= part.isTextual() && !part.textValue().isEmpty();
        }
        if (!commandOk) {
            add(
                    "case.invalid_field",
                    "environment.mcp.command",
                    "`environment.mcp.command` is not a non-empty list of non-empty strings",
                    shape);
        }
        JsonNode state = value.get("state");
        if (state == null || !state.isTextual() || state.textValue().isBlank()) {
            add("case.invalid_field", "environment.state", "`environment.state` is not a resource URI", shape);
        }
    }

    /**
     * Checks the case's {@code initial_actions}, the tool calls that set up each fresh environment of the case:
     * {@code [{"name": "tool", "arguments": {...}}, ...]}, only beside an environment.
     */
    private void initialActions(boolean noEnvironment) {
        JsonNode value = node.get("initial_actions");
        if (value == null || value.isNull()) {
            return;
        }
        String shape = "a list of {\"name\": \"tool\", \"arguments\": {...}} beside an `environment`";
        if (noEnvironment) {
            add("case.invalid_field", "initial_actions", "`initial_actions` needs an `environment` to act on", shape);
            return;
        }
        if (!value.isArray()) {
            add("case.invalid_field", "initial_actions", "`initial_actions` is " + describe(value), shape);
            return;
        }
        for (int index = 0; index < value.size(); index++) {
            JsonNode action = value.get(index);
            String at = "initial_actions[" + index + "]";
            boolean named = action.path("name").isTextual()
                    && !action.path("name").textValue().isBlank();
            JsonNode arguments = action.path("arguments");
            boolean argumentsOk = arguments.isMissingNode() || arguments.isObject();
            boolean keysOk = action.isObject();
            for (var field : action.properties()) {
                keysOk &= Set.of("name", "arguments").contains(field.getKey());
            }
            if (!action.isObject() || !named || !argumentsOk || !keysOk) {
                add("case.invalid_field", at, "`" + at + "` is not {\"name\": \"tool\", \"arguments\": {...}}", shape);
            }
        }
    }

    private List<Located> checks() {
        JsonNode checker = node.get("checker");
        JsonNode checks = node.get("checks");
        if (checker != null && checks != null) {
            add(
                    "case.invalid_field",
                    "checks",
                    "the case has both `checker` and `checks`",
                    "either `checker` (with `expected`) or `checks`, not both");
            return List.of();
        }
        if (checks != null) {
            return checkList(checks);
        }
        if (checker == null || checker.isNull()) {
            missing(
                    "checker",
                    Set.of("checker", "checks"),
                    "the case has no checker",
                    "`checker` (a name, with `expected`) or `checks`");
            return List.of();
        }
        if (checker.isObject() && node.has("expected")) {
            add(
                    "case.invalid_field",
                    "expected",
                    "a `checker` object carries its own fields; `expected` " + "belongs to a checker given by name",
                    "either `checker: {type: ...}` or `checker` + `expected`");
            return List.of();
        }
        Located located = located(checker, node.get("expected"), 1.0, "checker", "expected");
        return located == null ? List.of() : List.of(located);
    }

    private List<Located> checkList(JsonNode checks) {
        if (!checks.isArray() || checks.isEmpty()) {
            add(
                    "case.invalid_field",
                    "checks",
                    "`checks` is " + describe(checks),
                    "a non-empty list of {checker, expected, weight}");
            return List.of();
        }
        var result = new ArrayList<Located>();
        for (int index = 0; index < checks.size(); index++) {
            String prefix = "checks[" + index + "]";
            JsonNode entry = checks.get(index);
            if (!entry.isObject()) {
                add(
                        "case.invalid_field",
                        prefix,
                        "the check is " + describe(entry),
                        "an object {checker, expected, weight}");
                continue;
            }
            double weight = number(entry.get("weight"), prefix + ".weight", 1.0, value -> value >= 0, "a number >= 0");
            JsonNode checker = entry.get("checker");
            if (checker == null || checker.isNull()) {
                add("case.missing_field", prefix + ".checker", "the check has no `checker`", "a checker name");
                continue;
            }
            Located located = located(checker, expected(entry), weight, prefix + ".checker", prefix + ".expected");
            if (located != null) {
                result.add(located);
            }
        }
        return result;
    }

    /**
     * {@return a check's expectation}: its {@code expected}, or, when it has none, its other fields as one object, so
     * that {@code {"checker": "state_matches", "actions": [...]}} reads as {@code "expected": {"actions": [...]}}
     */
    private static JsonNode expected(JsonNode entry) {
        if (entry.has("expected")) {
            return entry.get("expected");
        }
        ObjectNode options = Json.object();
        entry.properties().forEach(field -> {
            if (!Set.of("checker", "weight").contains(field.getKey())) {
                options.set(field.getKey(), field.getValue());
            }
        });
        return options.isEmpty() ? null : options;
    }

    private Located located(
            JsonNode checker, JsonNode expected, double weight, String checkerField, String expectedField) {
        if (checker.isTextual() && !checker.textValue().isBlank()) {
            return new Located(new Check(checker.textValue().strip(), expected, weight), checkerField, expectedField);
        }
        if (checker.isObject()) {
            Check check = ReferenceFormat.toCheck((ObjectNode) checker, weight, checkerField, this);
            return check == null ? null : new Located(check, checkerField, checkerField);
        }
        add(
                "case.invalid_field",
                checkerField,
                "the checker is " + describe(checker),
                "a checker name, or an object with `type` (reference shape)");
        return null;
    }

    /**
     * {@return whether the case's {@code expected} values so far, this check's included, take at most
     * {@value #LARGEST_EXPECTED} characters written as JSON} More is a problem, on the check that passes the cap: they
     * are copied into every item of the case and every report (a 30 MB list made a 90 MB report), and the cap on stored
     * texts (as large) applies to each string, not to a list of them.
     */
    private boolean withinCap(Located located) {
        JsonNode expected = located.check().expected();
        if (expected == null) {
            return true;
        }
        var counted = new CharCounter(LARGEST_EXPECTED - expectedChars);
        try {
            Json.MAPPER.writeValue(counted, expected);
        } catch (IOException pastTheCap) {
            // The counter stops the writing once past the cap.
        }
        expectedChars += counted.count;
        if (expectedChars <= LARGEST_EXPECTED) {
            return true;
        }
        add(
                "suite.expected_too_large",
                located.expectedField(),
                "the case's `expected` values take more than " + LARGEST_EXPECTED + " characters written as JSON",
                "expected values of at most " + LARGEST_EXPECTED + " characters (1 Mi) as JSON in all");
        return false;
    }

    /** Counts what is written to it, and refuses more once past a limit. */
    private static final class CharCounter extends Writer {
        private final long limit;
        private long count;

        CharCounter(long limit) {
            this.limit = limit;
        }

        @Override
        public void write(char[] buffer, int offset, int length) throws IOException {
            count += length;
            if (count > limit) {
                throw new IOException("past the limit");
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    /** The checker's own factory decides whether {@code expected} makes sense, so bad options fail at load. */
    private void validate(Located located, CheckValidator registry) {
        try {
            registry.validate(located.check());
        } catch (AssayException e) {
            Problem problem = e.problem();
            boolean unknown = problem.type().equals("plugin.unknown");
            Object expected = problem.details().get("expected");
            // An unknown checker's message lists the known ones (and the one meant); it is not repeated as expected.
            add(
                    problem.type(),
                    unknown ? located.checkerField() : located.expectedField(),
                    problem.message(),
                    expected != null ? String.valueOf(expected) : "");
        } catch (RuntimeException e) {
            // A factory that lets its own exception escape still must not stop the whole load.
            add("check.invalid_expected", located.expectedField(), String.valueOf(e.getMessage()), "");
        }
    }

    /** BFCL's rules need the function's schema, so {@code "match": "bfcl"} names a function the case declares. */
    private void requireDeclaredForBfcl(Located located, DeclaredTools declared) {
        JsonNode expected = located.check().expected();
        if (!located.check().checker().equals("tool_args") || expected == null) {
            return;
        }
        List<JsonNode> calls = new ArrayList<>();
        if (expected.isArray()) {
            expected.forEach(calls::add);
        } else {
            calls.add(expected);
        }
        for (JsonNode call : calls) {
            String tool = call.path("tool").asText();
            if (call.path("match").asText().equals("bfcl")
                    && declared.function(tool).isEmpty()) {
                add(
                        "check.invalid_expected",
                        located.expectedField(),
                        "\"match\": \"bfcl\" judges '" + tool
                                + "' by its declared schema, but the case declares no function of that name",
                        "a function named in the case's `tools`");
            }
        }
    }

    private static Duration seconds(double seconds) {
        long nanos = BigDecimal.valueOf(seconds)
                .movePointRight(9)
                .setScale(0, RoundingMode.HALF_UP)
                .longValue();
        return Duration.ofNanos(Math.max(nanos, 1));
    }

    static String describe(JsonNode value) {
        String text = value.toString();
        String shown = text.length() > 40 ? text.substring(0, 37) + "..." : text;
        return switch (value.getNodeType()) {
            case STRING -> value.textValue().isBlank() ? "empty" : "the string " + shown;
            case ARRAY -> value.isEmpty() ? "an empty list" : "a list";
            case OBJECT -> "an object";
            default -> shown;
        };
    }
}
