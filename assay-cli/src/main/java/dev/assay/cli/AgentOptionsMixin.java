package dev.assay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.model.RetryPolicy;
import dev.assay.subject.sse.EventMapping;
import dev.assay.subject.sse.SseAgentSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options that reach an agent service over server-sent events ({@code --agent} and the {@code --agent-*} protocol
 * options; docs/targets.md), shared by the commands that call agents. Holds the NAME of the credential's variable,
 * never the credential.
 */
final class AgentOptionsMixin {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(
            names = "--agent",
            paramLabel = "<url>",
            converter = OptionValues.HttpUri.class,
            description = "An agent service that runs its own loop and streams SSE events, e.g. "
                    + "http://localhost:8000/wunder (see docs/targets.md).")
    URI url;

    @Option(
            names = "--agent-body",
            paramLabel = "<json|file>",
            description = "Request body template (inline JSON or a file) with {{prompt}}, {{session_id}}, {{user_id}}, "
                    + "{{run_id}}, {{model}}, {{language}}, {{tool_names}}, {{config_overrides}} (default: the "
                    + "reference /wunder body).")
    String body;

    @Option(
            names = "--agent-model",
            paramLabel = "<name>",
            defaultValue = "",
            description = "Sent as {{model}} (model_name in the reference body); empty for the service's default.")
    String model;

    @Option(
            names = "--agent-tools",
            split = ",",
            paramLabel = "<tool>",
            description = "Tool names sent to the agent as {{tool_names}} (default: the service's defaults).")
    List<String> tools = new ArrayList<>();

    @Option(
            names = "--agent-config",
            paramLabel = "<json>",
            description = "Sent as {{config_overrides}} (a JSON object).")
    String config;

    @Option(
            names = "--agent-auth-env",
            paramLabel = "<name>",
            description = "Environment variable holding the agent's credential; never stored.")
    String authEnv;

    @Option(
            names = "--agent-auth-header",
            paramLabel = "<name>",
            defaultValue = "Authorization",
            description = "Header for the credential; Authorization gets 'Bearer <value>' (default: ${DEFAULT-VALUE}).")
    String authHeader;

    @Option(
            names = "--agent-event",
            paramLabel = "<kind=name>",
            description = "The service's name for an event kind (tool_call, tool_result, llm_output, "
                    + "llm_output_delta, final, error), e.g. final=done. Repeatable.")
    Map<String, String> events = new LinkedHashMap<>();

    @Option(
            names = "--agent-path",
            paramLabel = "<field=pointer>",
            description = "JSON Pointer of a field, e.g. final.answer=/result/text (see docs/targets.md). Repeatable.")
    Map<String, String> paths = new LinkedHashMap<>();

    /** {@return whether {@code --agent} was given} */
    boolean given() {
        return url != null;
    }

    /**
     * {@return the settings the options describe}
     *
     * @param toolsUrl where to discover the agent's tools; null for none
     * @param sharedWorkspace whether the agent shares Assay's workspace directory
     * @param language sent as {{language}} when the prompt has none; empty for none
     * @param retry retries before the stream starts
     * @param maxConcurrency requests at once at most
     * @throws ParameterException when {@code --agent-body} or {@code --agent-config} is not JSON
     */
    SseAgentSettings settings(
            URI toolsUrl, boolean sharedWorkspace, String language, RetryPolicy retry, int maxConcurrency) {
        return new SseAgentSettings(
                url,
                body == null ? null : jsonOrFile(body, "--agent-body"),
                model,
                language,
                tools,
                toolsUrl,
                config == null ? null : objectOf(jsonOrFile(config, "--agent-config"), "--agent-config"),
                authHeader,
                authEnv,
                sharedWorkspace,
                new EventMapping(events, paths),
                null,
                retry,
                maxConcurrency);
    }

    /** Inline JSON when it looks like JSON, else the path of a file holding it. */
    private JsonNode jsonOrFile(String value, String option) {
        String text = value.strip();
        try {
            if (!text.startsWith("{") && !text.startsWith("[")) {
                text = Files.readString(Path.of(text));
            }
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new ParameterException(
                    mixee.commandLine(), option + ": neither JSON nor a readable JSON file: " + e.getMessage());
        }
    }

    private ObjectNode objectOf(JsonNode node, String option) {
        if (node instanceof ObjectNode object) {
            return object;
        }
        throw new ParameterException(mixee.commandLine(), option + " must be a JSON object");
    }
}
