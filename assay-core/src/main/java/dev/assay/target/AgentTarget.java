package dev.assay.target;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolResult;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptBuilder;
import dev.assay.transcript.TranscriptEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Assay's own agent loop around a {@link ChatModel}: send the case, execute the tool calls the model makes in the
 * case's workspace, send the results back, until a final answer, the step limit or the deadline. Thread-safe
 * (all per-case state lives in the {@link Session}).
 */
public final class AgentTarget implements Target {
    private final ChatModel model;
    private final Map<String, Tool> tools;
    private final List<ToolSpec> specs;
    private final List<ToolSpec> nativeSpecs;
    private final Map<String, String> toolByWireName = new LinkedHashMap<>();
    private final AgentSettings settings;
    private final int maxConcurrency;
    private final Map<String, Problem> withheld;

    /** A loop offering {@code tools}, none withheld. */
    public AgentTarget(ChatModel model, List<Tool> tools, AgentSettings settings, int maxConcurrency) {
        this(model, tools, settings, maxConcurrency, Map.of());
    }

    /**
     * @param model          the model under test
     * @param tools          the tools offered, by canonical name
     * @param settings       loop settings
     * @param maxConcurrency how many cases this model may work on at once
     * @param withheld       tools not offered here, by canonical name, with the reason (execute_command without a
     *                       sandbox); a case needing one is skipped with that reason
     */
    public AgentTarget(ChatModel model, List<Tool> tools, AgentSettings settings, int maxConcurrency,
                       Map<String, Problem> withheld) {
        this.model = model;
        this.withheld = Map.copyOf(withheld);
        this.tools = new LinkedHashMap<>();
        tools.forEach(tool -> this.tools.put(tool.name(), tool));
        this.specs = tools.stream().map(tool -> new ToolSpec(tool.name(), tool.description(), tool.parameters()))
                .toList();
        var wire = new ArrayList<ToolSpec>();
        for (ToolSpec spec : specs) {
            String wireName = wireName(spec.name());
            toolByWireName.put(wireName, spec.name());
            wire.add(new ToolSpec(wireName, spec.description(), spec.parameters()));
        }
        this.nativeSpecs = List.copyOf(wire);
        this.settings = settings;
        this.maxConcurrency = maxConcurrency;
    }

    @Override
    public String name() {
        return model.name();
    }

    @Override
    public void close() {
        model.close();
    }

    @Override
    public Set<String> toolNames() {
        return new LinkedHashSet<>(tools.keySet());
    }

    @Override
    public int maxConcurrency() {
        return maxConcurrency;
    }

    @Override
    public Map<String, Problem> withheldTools() {
        return withheld;
    }

    @Override
    public JsonNode describe() {
        ObjectNode node = Json.object();
        node.put("type", "agent");
        node.put("model", model.name());
        node.put("tool_mode", settings.toolMode().wireName());
        node.put("max_steps", settings.maxSteps());
        node.putPOJO("temperature", settings.temperature());
        node.putPOJO("seed", settings.seed());
        node.putPOJO("max_tokens", settings.maxTokens());
        node.set("tools", Json.tree(tools.keySet()));
        return node;
    }

    @Override
    public Transcript run(Case evalCase, Session session) throws InterruptedException {
        TranscriptBuilder transcript = session.transcript();
        var messages = new ArrayList<ChatMessage>();
        String system = systemPrompt(evalCase.language());
        if (!system.isEmpty()) {
            messages.add(ChatMessage.system(system));
        }
        messages.add(ChatMessage.user(evalCase.prompt()));
        for (int step = 0; step < settings.maxSteps(); step++) {
            ModelResponse response;
            try {
                response = model.complete(new ModelRequest(messages,
                        settings.toolMode() == ToolMode.NATIVE ? nativeSpecs : List.of(),
                        settings.temperature(), settings.seed(), settings.maxTokens(), session.remaining()));
            } catch (AssayException e) {
                transcript.add(new TranscriptEvent.TargetError(Instant.now(), e.problem()));
                return transcript.build();
            }
            transcript.add(new TranscriptEvent.ModelTurn(Instant.now(), response.text(), response.reasoning(),
                    response.usage()));
            List<ToolCallRequest> calls = settings.toolMode() == ToolMode.NATIVE
                    ? response.toolCalls() : numbered(TextToolCalls.parse(response.text()), step);
            if (calls.isEmpty()) {
                transcript.add(new TranscriptEvent.FinalAnswer(Instant.now(), response.text()));
                return transcript.build();
            }
            messages.add(ChatMessage.assistant(response.text(),
                    settings.toolMode() == ToolMode.NATIVE ? calls : List.of()));
            var textResults = new StringBuilder();
            for (ToolCallRequest call : calls) {
                String canonical = ToolNames.canonical(toolByWireName.getOrDefault(call.name(), call.name()));
                transcript.add(new TranscriptEvent.ToolCall(Instant.now(), call.id(), canonical, call.name(),
                        call.arguments()));
                ToolResult result = execute(canonical, call.arguments(), session);
                transcript.add(new TranscriptEvent.ToolOutput(Instant.now(), call.id(), canonical, result.ok(),
                        result.output(), result.error()));
                if (ToolNames.FINAL_ANSWER.equals(canonical) && result.ok()) {
                    transcript.add(new TranscriptEvent.FinalAnswer(Instant.now(), result.output()));
                    return transcript.build();
                }
                if (settings.toolMode() == ToolMode.NATIVE) {
                    messages.add(ChatMessage.tool(call.id(), result.forModel()));
                } else {
                    textResults.append("<tool_result name=\"").append(call.name()).append("\">\n")
                            .append(result.forModel()).append("\n</tool_result>\n");
                }
            }
            if (settings.toolMode() == ToolMode.TEXT) {
                messages.add(ChatMessage.user(textResults.toString().strip()));
            }
        }
        session.log().accept("step limit of " + settings.maxSteps() + " reached without a final answer");
        return transcript.build();
    }

    /**
     * OpenAI and Anthropic accept only {@code [a-zA-Z0-9_-]{1,64}} as function names, so {@code server@tool} (MCP)
     * and other names are offered as {@code server__tool}, and the model's calls are mapped back.
     */
    static String wireName(String name) {
        String wire = name.replace("@", "__").replaceAll("[^A-Za-z0-9_-]", "_");
        return wire.length() <= 64 ? wire : wire.substring(0, 64);
    }

    /** Text-mode ids restart in every message; the transcript pairs calls with outputs by id, so they must not. */
    private static List<ToolCallRequest> numbered(List<ToolCallRequest> calls, int step) {
        var renamed = new ArrayList<ToolCallRequest>();
        for (int i = 0; i < calls.size(); i++) {
            ToolCallRequest call = calls.get(i);
            renamed.add(new ToolCallRequest("call_" + (step + 1) + "_" + (i + 1), call.name(), call.arguments()));
        }
        return renamed;
    }

    private ToolResult execute(String canonical, JsonNode arguments, Session session) throws InterruptedException {
        Tool tool = tools.get(canonical);
        if (tool == null) {
            return ToolResult.failed(Problem.of("tool.unknown",
                    "no tool named '" + canonical + "'; available: " + String.join(", ", tools.keySet())));
        }
        try {
            return tool.call(arguments, session.workspace());
        } catch (AssayException e) {
            return ToolResult.failed(e.problem());
        } catch (RuntimeException e) {
            // A tool bug must not end the case; the model sees the failure like any other.
            return ToolResult.failed(Problem.of("tool.internal_error",
                    session.workspace().hideRoot(tool.name() + " failed: " + e)));
        }
    }

    private String systemPrompt(String language) {
        if (tools.isEmpty()) {
            return "";
        }
        boolean chinese = language.startsWith("zh");
        String intro = chinese
                ? "你在一个独立的工作区中工作，所有文件路径都相对于工作区根目录。需要时调用工具；完成后直接给出最终答案，"
                        + "或调用 final_answer 工具。"
                : "You work in an isolated workspace; every file path is relative to its root. Call tools when you "
                        + "need them; when you are done, give your final answer directly or call the final_answer tool.";
        return settings.toolMode() == ToolMode.TEXT
                ? intro + "\n\n" + TextToolPrompt.systemPrompt(specs, language)
                : intro;
    }
}
