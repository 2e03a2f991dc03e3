package dev.assay.cli;

import dev.assay.OwnerOnly;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Output directories are checked before a command starts its work, so that an unusable {@code --out} is a usage error
 * at once instead of a raw exception after a run that cost model calls.
 */
final class OutputDirectories {
    private OutputDirectories() {}

    /**
     * Creates the directory if needed, owner-only (reports hold prompts and answers, whatever the umask), and proves it
     * writable by creating and deleting a file in it.
     *
     * @throws ParameterException naming the option and what is wrong
     */
    static void requireWritable(CommandLine commandLine, String option, Path directory) {
        try {
            OwnerOnly.createDirectories(directory);
            Files.delete(Files.createTempFile(directory, ".assay-write-check-", ".tmp"));
        } catch (IOException | SecurityException e) {
            throw new ParameterException(
                    commandLine, option + " " + directory + " is not a writable directory: " + reason(e));
        }
    }

    /** {@return why, in words}: the JDK's exceptions say it by their class, which is no message for a user */
    private static String reason(Exception failure) {
        if (failure instanceof FileAlreadyExistsException) {
            return "a file of that name exists";
        }
        if (failure instanceof AccessDeniedException || failure instanceof SecurityException) {
            return "permission denied";
        }
        if (failure instanceof NoSuchFileException) {
            return "it cannot be made there (no such file or directory)";
        }
        if (failure instanceof NotDirectoryException) {
            return "a part of its path is a file";
        }
        if (failure instanceof FileSystemException fileSystem && fileSystem.getReason() != null) {
            return fileSystem.getReason();
        }
        return failure.getMessage() == null ? "it cannot be written" : failure.getMessage();
    }
}
