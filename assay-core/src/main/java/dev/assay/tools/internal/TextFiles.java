package dev.assay.tools.internal;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reading workspace files as UTF-8 text, telling binary files apart, and capping text for the model. A file is binary
 * when its first 8 KiB hold a NUL byte or its bytes are not valid UTF-8.
 */
final class TextFiles {
    /** Files larger than this are not edited or searched: they are not hand-written text. */
    static final long MAX_TEXT_BYTES = 8L * 1024 * 1024;

    private static final int SNIFF_BYTES = 8192;

    private TextFiles() {}

    /**
     * A file's text, possibly only its beginning.
     *
     * @param content the decoded text
     * @param truncated whether the file goes on beyond {@code content}
     * @param size the file's size in bytes
     */
    record Text(String content, boolean truncated, long size) {}

    /**
     * Reads at most {@code maxBytes} of a regular file.
     *
     * @return the text, or empty when the file is binary
     * @throws AssayException {@code file.not_found} or {@code file.is_directory}
     */
    static Optional<Text> read(Path file, Workspace workspace, long maxBytes) throws IOException {
        requireRegularFile(file, workspace);
        long size = Files.size(file);
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) Math.min(size, maxBytes));
        }
        boolean truncated = bytes.length < size;
        for (int i = 0; i < Math.min(bytes.length, SNIFF_BYTES); i++) {
            if (bytes[i] == 0) {
                return Optional.empty();
            }
        }
        // A cut may split the last character; up to 3 trailing bytes may then be dropped, never more.
        int droppable = truncated ? Math.min(3, bytes.length) : 0;
        for (int drop = 0; drop <= droppable; drop++) {
            try {
                String content = StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes, 0, bytes.length - drop))
                        .toString();
                return Optional.of(new Text(content, truncated, size));
            } catch (CharacterCodingException e) {
                // try again with one byte fewer, or give up below
            }
        }
        return Optional.empty();
    }

    /**
     * Reads a whole text file for editing.
     *
     * @throws AssayException {@code file.not_found}, {@code file.is_directory}, {@code file.too_large} or
     *     {@code file.binary}
     */
    static String readWhole(Path file, Workspace workspace) throws IOException {
        requireRegularFile(file, workspace);
        if (Files.size(file) > MAX_TEXT_BYTES) {
            throw failure("file.too_large", "the file is larger than " + MAX_TEXT_BYTES + " bytes", file, workspace);
        }
        return read(file, workspace, MAX_TEXT_BYTES)
                .orElseThrow(() -> failure("file.binary", "the file is not UTF-8 text", file, workspace))
                .content();
    }

    static void requireRegularFile(Path file, Workspace workspace) {
        if (Files.isDirectory(file)) {
            throw failure("file.is_directory", "the path is a directory, not a file", file, workspace);
        }
        if (!Files.isRegularFile(file)) {
            throw failure("file.not_found", "no such file", file, workspace);
        }
    }

    static AssayException failure(String type, String message, Path path, Workspace workspace) {
        String relative = workspace.relativize(path);
        return new AssayException(Problem.of(type, message + ": " + relative).withDetail("path", relative));
    }

    /** {@return the text cut to at most {@code maxBytes} UTF-8 bytes, with a truncation note when cut} */
    static String cap(String text, int maxBytes) {
        long total = 0;
        int end = 0;
        while (end < text.length()) {
            int codePoint = text.codePointAt(end);
            int bytes = utf8Length(codePoint);
            if (total + bytes > maxBytes) {
                return text.substring(0, end)
                        + truncationNote(
                                total, StandardCharsets.UTF_8.encode(text).limit());
            }
            total += bytes;
            end += Character.charCount(codePoint);
        }
        return text;
    }

    /** The note every capped output ends with, so a model knows it did not see everything. */
    static String truncationNote(long shownBytes, long totalBytes) {
        return "\n[truncated: showing the first " + shownBytes + " of " + totalBytes + " bytes]";
    }

    private static int utf8Length(int codePoint) {
        if (codePoint < 0x80) {
            return 1;
        }
        if (codePoint < 0x800) {
            return 2;
        }
        return codePoint < 0x10000 ? 3 : 4;
    }
}
