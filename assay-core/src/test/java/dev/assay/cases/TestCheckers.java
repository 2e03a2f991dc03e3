package dev.assay.cases;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.CheckerRegistry;
import dev.assay.check.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Checker factories that validate the documented {@code expected} shapes (docs/case-format.md) and judge nothing: the
 * real checkers are written on another branch, and loading only needs the validation.
 */
public final class TestCheckers {
    private TestCheckers() {}

    /** The nine documented checkers plus the reference server's {@code json_contains}. */
    public static CheckerRegistry registry() {
        Predicate<JsonNode> text = node -> node.isTextual() && !node.textValue().isBlank();
        Predicate<JsonNode> texts = node -> text.test(node) || (node.isArray() && !node.isEmpty() && all(node, text));
        Predicate<JsonNode> letter =
                node -> node.isTextual() && node.textValue().matches("[A-Z]");
        return new CheckerRegistry()
                .with(new Shape(
                        "choice",
                        node -> letter.test(node) || (node.isArray() && !node.isEmpty() && all(node, letter)),
                        "a letter or a list of letters"))
                .with(new Shape("exact", JsonNode::isTextual, "a string"))
                .with(new Shape(
                        "regex",
                        node -> text.test(node)
                                ? compiles(node.textValue())
                                : text.test(node.path("pattern"))
                                        && (node.path("on_invalid").asText().equals("fail")
                                                || compiles(node.path("pattern").textValue())),
                        "a valid pattern"))
                .with(new Shape("contains", texts, "a string or a list of strings"))
                .with(new Shape("tool_called", texts, "a tool name or a list of names"))
                .with(new Shape(
                        "tool_args",
                        node -> text.test(node.path("tool")) && (isArgs(node.path("args")) || node.has("required")),
                        "{tool, args}"))
                .with(new Shape(
                        "file_exists", node -> text.test(node) || text.test(node.path("path")), "a relative path"))
                .with(new Shape(
                        "file_contains",
                        node -> text.test(node.path("path")) && texts.test(node.path("contains")),
                        "{path, contains}"))
                .with(new Shape(
                        "json_schema",
                        node -> node.path("schema").isObject() && (!node.has("path") || text.test(node.path("path"))),
                        "{schema, path?}"))
                .with(new Shape(
                        "json_contains",
                        node -> text.test(node.path("path")) && node.has("required"),
                        "{path, required}"));
    }

    /** A registry knowing only the named checkers, each accepting any {@code expected}. */
    public static CheckerRegistry accepting(String... names) {
        var registry = new CheckerRegistry();
        for (String name : names) {
            registry.with(new Shape(name, node -> true, "anything"));
        }
        return registry;
    }

    /** The repository's {@code examples/capability}, found by walking up from the working directory. */
    public static Path exampleSuite() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("examples/capability");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(
                "examples/capability not found above " + Path.of("").toAbsolutePath());
    }

    private static boolean isArgs(JsonNode args) {
        return args.isObject() && all(args, JsonNode::isArray);
    }

    private static boolean all(JsonNode container, Predicate<JsonNode> test) {
        for (JsonNode element : container) {
            if (!test.test(element)) {
                return false;
            }
        }
        return true;
    }

    private static boolean compiles(String pattern) {
        try {
            Pattern.compile(pattern);
            return true;
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    record Shape(String name, Predicate<JsonNode> accepts, String expected) implements CheckerFactory {
        @Override
        public Checker create(JsonNode expectedNode) {
            if (!accepts.test(expectedNode)) {
                throw new AssayException(Problem.of("check.invalid_expected", name + " expects " + expected)
                        .withDetail("expected", expected));
            }
            return context -> Verdict.skipped("test.not_judged", "test factories validate only");
        }
    }
}
