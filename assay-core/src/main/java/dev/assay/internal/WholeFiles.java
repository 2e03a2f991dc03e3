package dev.assay.internal;

import dev.assay.OwnerOnly;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Files written whole: into a temporary file beside their place, then moved over it, so that a reader (a person, a
 * browser, another Assay process) never finds half of one, and a write that fails leaves what was there before.
 * Stateless.
 */
public final class WholeFiles {
    /** What writes a file's content. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private WholeFiles() {}

    /**
     * Writes the file whole and owner-only (0600, as every temporary file is made), its missing parent directories made
     * owner-only too: a report or a cache holds what is the user's alone, whatever the umask.
     */
    public static void write(Path file, Content content) throws IOException {
        write(file, content, false);
    }

    /**
     * Writes the file whole and on the disk before it takes its place: after a power cut it is there whole or not at
     * all, where a file moved unsynced may be found at its size and without its content.
     */
    public static void writeSynced(Path file, Content content) throws IOException {
        write(file, content, true);
    }

    private static void write(Path file, Content content, boolean synced) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        OwnerOnly.createDirectories(directory);
        Path partial = Files.createTempFile(directory, file.getFileName().toString(), ".partial");
        try {
            try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.WRITE);
                    OutputStream out = Channels.newOutputStream(channel)) {
                content.writeTo(out);
                if (synced) {
                    channel.force(true);
                }
            }
            try {
                Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                // A file system without atomic moves: the content is complete all the same.
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
