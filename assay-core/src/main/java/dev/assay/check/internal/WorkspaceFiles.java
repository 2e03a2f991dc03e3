package dev.assay.check.internal;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How file checkers reach the workspace. Paths are resolved with {@link Workspace#resolve}, so an absolute path, a
 * {@code ..} that climbs out or a link pointing outside fails with {@code workspace.escape}; the other failures are
 * {@code file.not_found}, {@code file.not_regular} (a directory or device where a file was expected),
 * {@code file.too_large} (over {@link #MAX_TEXT_BYTES}), {@code file.binary} (a NUL byte or invalid UTF-8) and
 * {@code file.unreadable} (an I/O error).
 */
public final class WorkspaceFiles {
    /** Checkers read whole files into memory; a model that writes gigabytes fails instead of exhausting it. */
    public static final long MAX_TEXT_BYTES = 16L * 1024 * 1024;

    private WorkspaceFiles() {}

    static StepResult<Path> resolve(Workspace workspace, String path) {
        try {
            return new StepResult.Ok<>(workspace.resolve(path));
        } catch (AssayException e) {
            return new StepResult.Failed<>(e.problem());
        }
    }

    static StepResult<Path> regularFile(Workspace workspace, String path) {
        return switch (resolve(workspace, path)) {
            case StepResult.Failed<Path> failed -> failed;
            case StepResult.Ok<Path>(Path file)
            when !Files.exists(file) -> failed("file.not_found", "no such file in the workspace", path);
            case StepResult.Ok<Path>(Path file)
            when !Files.isRegularFile(file) -> failed("file.not_regular", "not a regular file (a directory?)", path);
            case StepResult.Ok<Path> ok -> ok;
        };
    }

    /** {@return the file's text, decoded as strict UTF-8 with a leading byte-order mark removed} */
    static StepResult<String> readText(Workspace workspace, String path) {
        return switch (regularFile(workspace, path)) {
            case StepResult.Failed<Path>(Problem problem) -> new StepResult.Failed<>(problem);
            case StepResult.Ok<Path>(Path file) -> decode(file, path);
        };
    }

    private static StepResult<String> decode(Path file, String path) {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_TEXT_BYTES) {
                return failed("file.too_large", "larger than " + MAX_TEXT_BYTES + " bytes", path);
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return failed("file.unreadable", "cannot read: " + e.getMessage(), path);
        }
        for (byte b : bytes) {
            if (b == 0) {
                return failed("file.binary", "a binary file (it contains NUL bytes), not text", path);
            }
        }
        try {
            String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
            return new StepResult.Ok<>(text.startsWith("\uFEFF") ? text.substring(1) : text);
        } catch (CharacterCodingException e) {
            return failed("file.binary", "not valid UTF-8 text", path);
        }
    }

    private static <T> StepResult<T> failed(String type, String why, String path) {
        return new StepResult.Failed<>(Problem.of(type, why + ": " + path).withDetail("path", path));
    }
}
