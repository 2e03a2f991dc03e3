package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.dialog.DialogRunConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The system prompt of {@code dialog run} against a model, and its label in the run's config fingerprint. */
final class DialogPromptOptions {
    @Option(names = "--system-prompt", paramLabel = "FILE", description = "System prompt sent first in every request.")
    Path systemPrompt;

    @Option(
            names = "--prompt-version",
            paramLabel = "LABEL",
            description = "Label of the prompt for the config fingerprint; default: a hash of the system prompt.")
    String promptVersion;

    /** {@return whether a system prompt was given} */
    boolean given() {
        return systemPrompt != null;
    }

    /**
     * {@return the system prompt, empty when none was given}
     *
     * @throws AssayException {@code dialog.input_unreadable}
     */
    String read() {
        try {
            return systemPrompt == null ? "" : Files.readString(systemPrompt, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssayException(Problem.of("dialog.input_unreadable", e.toString()), e);
        }
    }

    /** {@return the prompt's label: the one given, or a hash of {@code prompt}} */
    String version(String prompt) {
        if (promptVersion != null) {
            return promptVersion;
        }
        return DialogRunConfig.promptVersion(prompt);
    }
}
