package dev.assay;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
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

    /**
     * Makes {@code directory}, one of Assay's own that nobody else may change (the native library it loads lies in it),
     * owner-only. {@return whether it is now a directory (not a link) of this user that no one else may write}; always
     * true where there are no POSIX permissions.
     */
    public static boolean makePrivate(Path directory) throws IOException {
        if (!isPosix(directory)) {
            return true;
        }
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS) || !ownedByUser(directory)) {
            return false;
        }
        Files.setPosixFilePermissions(directory, DIRECTORY.value());
        return true;
    }

    /**
     * {@return whether {@code directory} is a directory of this user that no one else may write}, so that nobody else
     * can replace what lies in it; true where there are no POSIX permissions. Its mode is left as its owner gave it.
     */
    public static boolean noOneElseWrites(Path directory) throws IOException {
        if (!isPosix(directory)) {
            return true;
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(directory);
        return Files.isDirectory(directory)
                && ownedByUser(directory)
                && !permissions.contains(PosixFilePermission.GROUP_WRITE)
                && !permissions.contains(PosixFilePermission.OTHERS_WRITE);
    }

    private static boolean ownedByUser(Path path) throws IOException {
        UserPrincipal user = path.getFileSystem()
                .getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
        return Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).equals(user);
    }

    private static boolean isPosix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
