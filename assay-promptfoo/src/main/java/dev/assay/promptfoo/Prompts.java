package dev.assay.promptfoo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.Yaml;
import dev.assay.promptfoo.PromptfooConfig.Context;
import dev.assay.promptfoo.PromptfooConfig.FileRefs;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Reads a config's {@code prompts} as promptfoo does (docs/promptfoo.md). Stateless. */
final class Prompts {
    /** promptfoo separates the prompts of one text file by a line of three dashes. */
    private static final String SEPARATOR = "---";

    /** The keys of a prompt object Assay honours; a prompt's own {@code config} or {@code function} is not. */
    private static final Set<String> HONOURED = Set.of("raw", "id", "label");

    private Prompts() {}

    /**
     * {@return the prompts {@code node} lists}: a string, a list of strings and {@code {raw|id, label}} objects, or a
     * mapping of a file reference to its label
     */
    static List<Prompt> read(JsonNode node, Context context) {
        var raws = new ArrayList<String[]>();
        if (node.isMissingNode() || node.isNull()) {
            context.problem("promptfoo.missing_prompts", "prompts", "the config has no prompts", "at least one prompt");
            return List.of();
        }
        if (node.isObject() && !node.has("raw") && !node.has("id")) {
            node.properties().forEach(entry -> {
                String key = "prompts." + entry.getKey();
                add(entry.getKey(), entry.getValue().asText(""), key, context, raws);
            });
        } else {
            List<JsonNode> entries = PromptfooConfig.listOf(node);
            for (int i = 0; i < entries.size(); i++) {
                JsonNode entry = entries.get(i);
                String key = "prompts[" + i + "]";
                if (entry.isTextual()) {
                    add(entry.textValue(), "", key, context, raws);
                } else if (entry.isObject()
                        && (entry.path("raw").isTextual() || entry.path("id").isTextual())) {
                    context.unhonoured(entry, HONOURED, "prompt", context.source(), key);
                    String label = entry.path("label").asText("");
                    if (entry.path("raw").isTextual()) {
                        raws.add(new String[] {entry.path("raw").textValue(), label});
                    } else {
                        add(entry.path("id").textValue(), label, key, context, raws);
                    }
                } else {
                    context.problem(
                            "promptfoo.invalid_prompt",
                            key,
                            "a prompt is " + entry.getNodeType().name().toLowerCase(Locale.ROOT),
                            "a string, a file:// reference or {raw|id, label}");
                }
            }
        }
        var prompts = new ArrayList<Prompt>();
        for (String[] raw : raws) {
            prompts.add(new Prompt(raw[0], raw[1], prompts.size()));
        }
        return prompts;
    }

    /** Adds an inline prompt, or the prompts of the file it references. */
    private static void add(String text, String label, String key, Context context, List<String[]> out) {
        if (!text.startsWith(FileRefs.PREFIX)) {
            out.add(new String[] {text, label});
            return;
        }
        String written = FileRefs.written(text);
        String lower = written.toLowerCase(Locale.ROOT);
        if (written.contains("*") || lower.endsWith(".js") || lower.endsWith(".py") || written.contains(".py:")) {
            context.problem(
                    "promptfoo.unsupported_prompt",
                    key,
                    "prompt files by glob and prompt functions (.js, .py) are not supported: " + written,
                    "a .txt, .md, .json, .yaml or .jsonl prompt file");
            return;
        }
        String content = context.text(text, key);
        if (content == null) {
            return;
        }
        if (lower.endsWith(".json")) {
            out.add(new String[] {content, label.isEmpty() ? written + ": " + content : label});
        } else if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
            try {
                String json = Json.write(Yaml.MAPPER.readTree(content));
                out.add(new String[] {json, label.isEmpty() ? written + ": " + json : label});
            } catch (IOException | RuntimeException e) {
                context.problem(
                        "promptfoo.invalid_prompt", key, written + " does not parse: " + e.getMessage(), "YAML");
            }
        } else if (lower.endsWith(".jsonl")) {
            for (String line : content.split("\\r?\\n")) {
                if (!line.isBlank()) {
                    out.add(new String[] {line, label.isEmpty() ? written + ": " + line : label});
                }
            }
        } else {
            // Split at lines that are `---` once trimmed, each prompt trimmed, empty ones dropped, as promptfoo does.
            var buffer = new StringBuilder();
            for (String line : (content + "\n" + SEPARATOR).split("\r?\n", -1)) {
                if (!line.strip().equals(SEPARATOR)) {
                    buffer.append(buffer.isEmpty() ? "" : "\n").append(line);
                    continue;
                }
                String prompt = buffer.toString().strip();
                buffer.setLength(0);
                if (!prompt.isEmpty()) {
                    String path = label.isEmpty() ? written : label + ": " + written;
                    out.add(new String[] {prompt, path + ": " + prompt});
                }
            }
        }
    }
}
