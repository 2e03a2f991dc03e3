package dev.assay;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files and directories only their owner may read, for what holds prompts, answers and transcripts (Assay's home, the
 * SQLite database): other users of the machine must not read them. Only what is created here gets the owner-only mode;
 * a file or directory that exists keeps the mode its owner chose. On a file system without POSIX permissions (Windows)
 * they are created plainly and take the access list of the directory they are in. Stateless.
 */
public final class OwnerOnly {
    private static final FileAttribute<Set<PosixFilePermission>> DIRECTORY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    private static final FileAttribute<Set<PosixFilePermission>> FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private OwnerOnly() {}

    /**
     * Creates the directory and each of its missing parents owner-only (0700); those that exist are left as they are.
     */
    public static void createDirectories(Path directory) throws IOException {
        if (isPosix(directory)) {
            Files.createDirectories(directory, DIRECTORY);
        } else {
            Files.createDirectories(directory);
        }
    }

    /** Creates the file, empty and owner-only (0600), when nothing is at its path; what is there is left as it is. */
    public static void createFile(Path file) throws IOException {
        try {
            if (isPosix(file)) {
                Files.createFile(file, FILE);
            } else {
                Files.createFile(file);
            }
        } catch (FileAlreadyExistsException exists) {
            // The user's own file, or one another process made a moment ago: its mode is theirs.
        }
    }

    private static boolean isPosix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
