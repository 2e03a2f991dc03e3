package dev.assay.cli;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
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
     * Creates the directory if needed and proves it writable by creating and deleting a file in it.
     *
     * @throws ParameterException naming the option and what is wrong
     */
    static void requireWritable(CommandLine commandLine, String option, Path directory) {
        try {
            Files.createDirectories(directory);
            Files.delete(Files.createTempFile(directory, ".assay-write-check-", ".tmp"));
        } catch (IOException | SecurityException e) {
            throw new ParameterException(
                    commandLine, option + " " + directory + " is not a writable directory: " + reason(e));
        }
    }

    private static String reason(Exception failure) {
        if (failure instanceof FileAlreadyExistsException) {
            return "a file of that name exists";
        }
        if (failure instanceof FileSystemException fileSystem && fileSystem.getReason() != null) {
            return fileSystem.getReason();
        }
        return failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    }
}
