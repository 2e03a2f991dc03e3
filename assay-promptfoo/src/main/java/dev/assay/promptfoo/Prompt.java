package dev.assay.promptfoo;

import java.util.Objects;

/**
 * One prompt of a config: a template rendered with each test's vars. A chat prompt is a JSON list of messages as text
 * ({@code file://chat.json}); the provider reads it as promptfoo's do.
 *
 * @param raw the template as written
 * @param label how results name it: the {@code label} given, else the raw text, or {@code PATH: raw} for a file's
 * @param index its position among the config's prompts (0-based)
 */
public record Prompt(String raw, String label, int index) {
    public Prompt {
        Objects.requireNonNull(raw, "raw");
        label = label == null || label.isEmpty() ? raw : label;
    }
}
