package dev.assay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.Yaml;
import dev.assay.run.RunSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options of {@code assay run} that choose which cases of its suites are evaluated ({@code --dimensions},
 * {@code --language}, {@code --tags}, {@code --ids}, {@code --limit}, {@code --skip-invalid}) and the environment of
 * those that name none ({@code --environment}). {@code --seed}, which shuffles the selection, is the model's
 * ({@link ModelOptionsMixin}).
 */
final class RunCaseOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(
            names = "--dimensions",
            split = ",",
            paramLabel = "<dimension>",
            description = "Only these dimensions, e.g. tool,logic.")
    List<String> dimensions = new ArrayList<>();

    @Option(names = "--language", paramLabel = "<tag>", description = "Only cases in this language (zh-CN, en-US).")
    String language;

    @Option(names = "--tags", split = ",", paramLabel = "<tag>", description = "Only cases with any of these tags.")
    List<String> tags = new ArrayList<>();

    @Option(names = "--ids", split = ",", paramLabel = "<id>", description = "Only these case ids.")
    List<String> ids = new ArrayList<>();

    @Option(
            names = "--limit",
            paramLabel = "<n>",
            converter = OptionValues.NotNegative.class,
            description = "At most this many cases (after --seed shuffling; 0 = all).")
    Integer limit;

    @Option(names = "--skip-invalid", description = "Run the valid cases of an invalid suite instead of refusing.")
    boolean skipInvalid;

    @Option(
            names = "--environment",
            paramLabel = "<json|file>",
            description = "The environment of the cases that name none, as a case's environment field is written"
                    + " ({\"mcp\": {\"command\": [...]}, \"state\": \"URI\"}), given as JSON or as a .json or"
                    + " .yaml file holding it: the domain's environment for a τ²-bench tasks.json (docs/tau2.md).")
    String environment;

    /** Adds what these options say to the command line's settings: only the options given. */
    void addTo(RunSettings settings) {
        settings.skipInvalid(skipInvalid ? true : null)
                .dimensions(dimensions.isEmpty() ? null : dimensions)
                .language(language)
                .tags(tags.isEmpty() ? null : tags)
                .ids(ids.isEmpty() ? null : ids)
                .limit(limit)
                .environment(environment == null ? null : environmentObject(environment));
    }

    /** {@return {@code --environment}'s object: the JSON given, or the JSON or YAML file it names} */
    private ObjectNode environmentObject(String given) {
        JsonNode read;
        try {
            String text = given.strip();
            if (text.startsWith("{")) {
                read = Json.MAPPER.readTree(text);
            } else {
                Path file = Path.of(text);
                read = (text.endsWith(".yaml") || text.endsWith(".yml") ? Yaml.MAPPER : Json.MAPPER)
                        .readTree(Files.readString(file));
            }
        } catch (IOException | RuntimeException e) {
            throw new ParameterException(
                    mixee.commandLine(),
                    "--environment is neither an environment object in JSON nor a file holding one: " + e.getMessage());
        }
        if (!(read instanceof ObjectNode object)) {
            throw new ParameterException(
                    mixee.commandLine(),
                    "--environment must be an object {\"mcp\": {\"command\": [...]}, \"state\": URI}");
        }
        return object;
    }
}
