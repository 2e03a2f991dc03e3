package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code file_exists}: a path exists in the workspace. Expected: {@code "relative/path"} or {@code {"path": "...",
 * "type": "file" | "directory" | "any"}}. The default is {@code file}, a regular file (a link to one inside the
 * workspace counts): the reference also passed on directories, which let a model pass by creating an empty folder
 * (docs/checkers.md, difference F1). A path that leaves the workspace fails with {@code workspace.escape}; a missing
 * one with {@code file.not_found}; the wrong kind with {@code file.not_regular} or {@code file.not_directory}.
 *
 * @param path the workspace-relative path
 * @param type {@code file}, {@code directory} or {@code any}
 */
record FileExistsChecker(String path, String type) implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("file_exists", FileExistsChecker::create);

    static FileExistsChecker create(JsonNode node) {
        var expected = Expected.of("file_exists", node);
        if (expected.isObject()) {
            expected.onlyKeys(Set.of("path", "type"));
            return new FileExistsChecker(
                    expected.text("path", expected.requiredField("path")),
                    expected.choice("type", List.of("file", "directory", "any"), "file"));
        }
        return new FileExistsChecker(expected.text("expected", node), "file");
    }

    @Override
    public Verdict check(CheckContext context) {
        ObjectNode detail = Json.object();
        detail.put("path", path);
        detail.put("type", type);
        return switch (WorkspaceFiles.resolve(context.workspace(), path)) {
            case StepResult.Failed<Path>(Problem problem) -> failed(problem.type(), problem.message(), detail);
            case StepResult.Ok<Path>(Path file) -> judge(file, detail);
        };
    }

    private Verdict judge(Path file, ObjectNode detail) {
        String kind = Files.isRegularFile(file)
                ? "file"
                : Files.isDirectory(file) ? "directory" : Files.exists(file) ? "other" : "none";
        detail.put("exists", !kind.equals("none"));
        detail.put("kind", kind);
        if (kind.equals("file")) {
            try {
                detail.put("size", Files.size(file));
            } catch (IOException e) {
                detail.putNull("size");
            }
        }
        if (kind.equals("none")) {
            return failed("file.not_found", "no such path in the workspace: " + path, detail);
        }
        if (type.equals("file") && !kind.equals("file")) {
            return failed("file.not_regular", "not a regular file: " + path + " (" + kind + ")", detail);
        }
        if (type.equals("directory") && !kind.equals("directory")) {
            return failed("file.not_directory", "not a directory: " + path + " (" + kind + ")", detail);
        }
        return Verdict.passed(detail);
    }

    private static Verdict failed(String type, String message, ObjectNode detail) {
        detail.put("error", message);
        return Verdict.failed(type, message, detail);
    }
}
