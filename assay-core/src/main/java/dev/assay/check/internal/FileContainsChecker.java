package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import java.util.List;
import java.util.Set;

/**
 * {@code file_contains}: a workspace text file contains every expected fragment. Expected: {@code {"path": "...",
 * "contains": "text" | [...], "ignore_case": false, "fold_whitespace": false}}; the reference's {@code text} is
 * accepted for {@code contains}. The file is read as strict UTF-8; see {@link WorkspaceFiles} for the file error types;
 * missing fragments fail with {@code file_contains.missing}.
 *
 * @param path the workspace-relative file
 * @param fragments the fragments, all required
 * @param matching how text and fragments are normalised
 */
record FileContainsChecker(String path, List<String> fragments, TextMatching matching) implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("file_contains", FileContainsChecker::create);

    FileContainsChecker {
        fragments = List.copyOf(fragments);
    }

    static FileContainsChecker create(JsonNode node) {
        var expected = Expected.of("file_contains", node);
        if (!expected.isObject()) {
            throw expected.invalid("an object {\"path\": ..., \"contains\": ...}");
        }
        expected.onlyKeys(Set.of("path", "contains", "text", "ignore_case", "fold_whitespace"));
        String path = expected.text("path", expected.requiredField("path"));
        List<String> fragments = expected.texts("contains", expected.requiredField("contains", "text"));
        return new FileContainsChecker(path, fragments, TextMatching.from(expected));
    }

    @Override
    public Verdict check(CheckContext context) {
        ObjectNode detail = Json.object();
        detail.put("path", path);
        detail.set("expected", Json.strings(fragments));
        return switch (WorkspaceFiles.readText(context.workspace(), path)) {
            case StepResult.Failed<String>(Problem problem) -> {
                detail.put("error", problem.message());
                yield Verdict.failed(problem.type(), problem.message(), detail);
            }
            case StepResult.Ok<String>(String text) -> {
                List<String> missing = ContainsChecker.missingFragments(fragments, text, matching);
                detail.set("missing", Json.strings(missing));
                detail.put("matched", missing.isEmpty());
                yield Verdict.of(
                        missing.isEmpty(),
                        "file_contains.missing",
                        missing.size() + " of " + fragments.size() + " expected fragments not found in " + path,
                        detail);
            }
        };
    }
}
