package dev.assay.subject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.DeclaredTools;
import dev.assay.model.ChatMessage;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.model.ToolCallRequest;
import dev.assay.subject.internal.DeclaredFunctionTool;
import dev.assay.subject.internal.TextToolCalls;
import dev.assay.subject.internal.TextToolPrompt;
import dev.assay.subject.internal.UserSimulator;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolResult;
import dev.assay.tools.ToolSpec;
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
 * case's workspace, send the results back, until a final answer, the step limit or the deadline. Thread-safe (all
 * per-case state lives in the {@link Session}).
 */
public final class AgentSubject implements Subject {
    /** How an observer learns of a call cut short by the case's deadline or the run's cancellation. */
    public static final Problem INTERRUPTED =
            Problem.of("target.interrupted", "the call was cut short by the case's deadline or a cancellation");

    private final ChatModel model;
    private final Offer runTools;
    private final AgentSettings settings;
    private final int maxConcurrency;
    private final Map<String, Problem> withheld;
    private final UserModels users;

    /** A loop offering {@code tools}, none withheld. */
    public AgentSubject(ChatModel model, List<Tool> tools, AgentSettings settings, int maxConcurrency) {
        this(model, tools, settings, maxConcurrency, Map.of());
    }

    /** A loop without user models: a conversation case is an {@code error} item ({@code user.no_model}). */
    public AgentSubject(
            ChatModel model,
            List<Tool> tools,
            AgentSettings settings,
            int maxConcurrency,
            Map<String, Problem> withheld) {
        this(model, tools, settings, maxConcurrency, withheld, UserModels.NONE);
    }

    /**
     * @param model the model under test
     * @param tools the tools offered, by canonical name
     * @param settings loop settings
     * @param maxConcurrency how many cases this model may work on at once
     * @param withheld tools not offered here, by canonical name, with the reason (execute_command without a sandbox); a
     *     case needing one is skipped with that reason
     * @param users the user models that play conversation cases' users
     */
    public AgentSubject(
            ChatModel model,
            List<Tool> tools,
            AgentSettings settings,
            int maxConcurrency,
            Map<String, Problem> withheld,
            UserModels users) {
        this.model = model;
        this.users = users;
        this.withheld = Map.copyOf(withheld);
        this.runTools = Offer.of(tools);
        this.settings = settings;
        this.maxConcurrency = maxConcurrency;
    }

    @Override
    public String name() {
        return model.name();
    }

    @Override
    public void close() {
        try {
            model.close();
        } finally {
            users.close();
        }
    }

    @Override
    public Set<String> toolNames() {
        return new LinkedHashSet<>(runTools.byName().keySet());
    }

    @Override
    public Set<String> toolNames(SubjectInput input) {
        return new LinkedHashSet<>(offerFor(input).byName().keySet());
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
        node.put("temperature", settings.temperature());
        node.put("seed", settings.seed());
        node.put("max_tokens", settings.maxTokens());
        node.set("tools", Json.tree(runTools.byName().keySet()));
        return node;
    }

    @Override
    public Transcript run(SubjectInput input, Session session) throws InterruptedException {
        TranscriptBuilder transcript = session.transcript();
        Offer offer = offerFor(input, session);
        var messages = new ArrayList<ChatMessage>();
        String system = systemPrompt(offer, input);
        if (!system.isEmpty()) {
            messages.add(ChatMessage.system(system));
        }
        if (input.user() != null) {
            return converse(input, session, offer, messages);
        }
        messages.add(ChatMessage.user(input.prompt()));
        String answer = reply(input, session, offer, messages);
        if (answer != null) {
            transcript.add(new TranscriptEvent.FinalAnswer(Instant.now(), answer));
        }
        return transcript.build();
    }

    /**
     * Plays a conversation case: the simulated user speaks first, each reply of the model (after its tool calls) goes
     * back to the user, until the user's message holds the stop token, the user has sent {@code max_turns} messages, or
     * the deadline. The last reply is the final answer.
     */
    private Transcript converse(SubjectInput input, Session session, Offer offer, List<ChatMessage> messages)
            throws InterruptedException {
        TranscriptBuilder transcript = session.transcript();
        UserSimulator user;
        try {
            user = new UserSimulator(users.model(input.user()), input.user());
        } catch (AssayException e) {
            transcript.add(new TranscriptEvent.SubjectError(Instant.now(), e.problem()));
            return transcript.build();
        }
        String last = null;
        for (int turn = 0; turn < input.user().maxTurns(); turn++) {
            String said = user.say(last, input.caseId(), session);
            if (said == null || said.contains(input.user().stop())) {
                break;
            }
            messages.add(ChatMessage.user(said));
            String answer = reply(input, session, offer, messages);
            if (answer == null) {
                return transcript.build();
            }
            last = answer;
        }
        if (last != null) {
            transcript.add(new TranscriptEvent.FinalAnswer(Instant.now(), last));
        }
        return transcript.build();
    }

    /**
     * One reply of the model to the conversation so far: model calls and their tool calls until the model answers in
     * text (or through {@code final_answer}), which is added to {@code messages}. Returns that text, or null when the
     * trial ends here: the model failed or the case went over its token limit (each recorded as a
     * {@code SubjectError}), or the step limit was reached.
     */
    private String reply(SubjectInput input, Session session, Offer offer, List<ChatMessage> messages)
            throws InterruptedException {
        TranscriptBuilder transcript = session.transcript();
        for (int step = 0; step < settings.maxSteps(); step++) {
            ModelResponse response;
            var request = new ModelRequest(
                    messages,
                    settings.toolMode() == ToolMode.NATIVE ? offer.nativeSpecs() : List.of(),
                    settings.temperature(),
                    settings.seed(),
                    settings.maxTokens(),
                    session.remaining());
            TrialObserver.ModelCall observed = session.observer().modelCall(model.name(), request);
            try {
                response = session.responses().complete(model, input.caseId(), request);
            } catch (AssayException e) {
                observed.failed(e.problem());
                transcript.add(new TranscriptEvent.SubjectError(Instant.now(), e.problem()));
                return null;
            } catch (InterruptedException e) {
                observed.failed(INTERRUPTED);
                throw e;
            }
            observed.answered(response);
            transcript.add(new TranscriptEvent.ModelTurn(
                    Instant.now(), response.text(), response.reasoning(), response.usage()));
            var overLimit = transcript.overTokenLimit();
            if (overLimit.isPresent()) {
                transcript.add(new TranscriptEvent.SubjectError(Instant.now(), overLimit.get()));
                return null;
            }
            List<ToolCallRequest> calls = settings.toolMode() == ToolMode.NATIVE
                    ? response.toolCalls()
                    : numbered(TextToolCalls.parse(response.text()), step);
            if (calls.isEmpty()) {
                messages.add(ChatMessage.assistant(response.text(), List.of()));
                return response.text();
            }
            messages.add(
                    ChatMessage.assistant(response.text(), settings.toolMode() == ToolMode.NATIVE ? calls : List.of()));
            var textResults = new StringBuilder();
            for (ToolCallRequest call : calls) {
                String canonical = offer.resolve(call.name(), settings.toolMode() == ToolMode.NATIVE);
                transcript.add(new TranscriptEvent.ToolCall(
                        Instant.now(), call.id(), canonical, call.name(), call.arguments()));
                TrialObserver.ToolCall observedTool = session.observer().toolCall(canonical, call.id());
                ToolResult result;
                try {
                    result = execute(offer, canonical, call.arguments(), session);
                } catch (InterruptedException e) {
                    observedTool.ended(ToolResult.failed(INTERRUPTED));
                    throw e;
                }
                observedTool.ended(result);
                transcript.add(new TranscriptEvent.ToolOutput(
                        Instant.now(), call.id(), canonical, result.ok(), result.output(), result.error()));
                if (settings.toolMode() == ToolMode.NATIVE) {
                    messages.add(ChatMessage.tool(call.id(), result.forModel()));
                } else {
                    textResults
                            .append("<tool_result name=\"")
                            .append(call.name())
                            .append("\">\n")
                            .append(result.forModel())
                            .append("\n</tool_result>\n");
                }
                if (ToolNames.FINAL_ANSWER.equals(canonical) && result.ok()) {
                    return result.output();
                }
            }
            if (settings.toolMode() == ToolMode.TEXT) {
                messages.add(ChatMessage.user(textResults.toString().strip()));
            }
        }
        session.log().accept("step limit of " + settings.maxSteps() + " reached without a final answer");
        return null;
    }

    /**
     * OpenAI and Anthropic accept only {@code [a-zA-Z0-9_-]{1,64}} as function names, so {@code server@tool} (MCP) and
     * other names are offered as {@code server__tool}, and the model's calls are mapped back.
     */
    static String wireName(String name) {
        String wire = name.replace("@", "__").replaceAll("[^A-Za-z0-9_-]", "_");
        return wire.length() <= 64 ? wire : wire.substring(0, 64);
    }

    /**
     * {@link #wireName}, with {@code _2}, {@code _3}... when another offered tool already has it ({@code a.b},
     * {@code a_b}).
     */
    private static String uniqueWireName(String name, Set<String> taken) {
        String wire = wireName(name);
        for (int n = 2; taken.contains(wire); n++) {
            String suffix = "_" + n;
            String base = wireName(name);
            wire = base.substring(0, Math.min(base.length(), 64 - suffix.length())) + suffix;
        }
        return wire;
    }

    /**
     * The tools offered on one case.
     *
     * @param byName by the name checkers and transcripts use
     * @param specs as the text-mode prompt shows them (real names)
     * @param nativeSpecs as the API receives them (wire names)
     * @param byWireName wire name to real name
     */
    private record Offer(
            Map<String, Tool> byName,
            List<ToolSpec> specs,
            List<ToolSpec> nativeSpecs,
            Map<String, String> byWireName) {
        static Offer of(List<Tool> tools) {
            var byName = new LinkedHashMap<String, Tool>();
            tools.forEach(tool -> byName.putIfAbsent(tool.name(), tool));
            var specs = new ArrayList<ToolSpec>();
            var wire = new ArrayList<ToolSpec>();
            var byWireName = new LinkedHashMap<String, String>();
            for (Tool tool : byName.values()) {
                specs.add(new ToolSpec(tool.name(), tool.description(), tool.parameters()));
                String wireName = uniqueWireName(tool.name(), byWireName.keySet());
                byWireName.put(wireName, tool.name());
                wire.add(new ToolSpec(wireName, tool.description(), tool.parameters()));
            }
            return new Offer(byName, List.copyOf(specs), List.copyOf(wire), byWireName);
        }

        /**
         * {@return the name of the tool a model called}: a wire name mapped back (native calls use wire names, and
         * {@code a_b} may be the wire name of {@code a.b}), an offered name as it is (text mode; a declared function
         * called {@code search} stays {@code search}), anything else through the alias table
         */
        String resolve(String called, boolean wireNames) {
            String real = byWireName.get(called);
            if (wireNames && real != null) {
                return real;
            }
            if (byName.containsKey(called)) {
                return called;
            }
            return real != null ? real : ToolNames.canonical(called);
        }

        boolean offersBuiltins() {
            return byName.containsKey(ToolNames.FINAL_ANSWER);
        }
    }

    /**
     * As {@link #offerFor(SubjectInput)}, with the tools of the trial's environment first under their own names, and
     * the withheld tools only for a trial with a sandbox of its own (its container).
     */
    private Offer offerFor(SubjectInput input, Session session) {
        Offer offer = offerFor(input);
        boolean ownSandbox =
                session.workspace() != null && session.workspace().sandbox().isPresent();
        if (session.tools().isEmpty() && (ownSandbox || withheld.isEmpty())) {
            return offer;
        }
        var offered = new ArrayList<>(session.tools());
        offer.byName().values().stream()
                .filter(tool -> ownSandbox || !withheld.containsKey(tool.name()))
                .forEach(offered::add);
        return Offer.of(offered);
    }

    /**
     * A case that declares functions ({@code tools}) is offered those instead of the run's tools, or before them with
     * {@code builtin_tools: true} (a declared name wins over a run tool of the same name).
     */
    private Offer offerFor(SubjectInput input) {
        DeclaredTools declared = input.declaredTools();
        if (declared.isEmpty()) {
            return runTools;
        }
        var offered = new ArrayList<>(DeclaredFunctionTool.of(declared));
        if (declared.builtinTools()) {
            offered.addAll(runTools.byName().values());
        }
        return Offer.of(offered);
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

    private static ToolResult execute(Offer offer, String canonical, JsonNode arguments, Session session)
            throws InterruptedException {
        Tool tool = offer.byName().get(canonical);
        if (tool == null) {
            return ToolResult.failed(Problem.of(
                    "tool.unknown",
                    "no tool named '" + canonical + "'; available: "
                            + String.join(", ", offer.byName().keySet())));
        }
        try {
            return tool.call(arguments, session.workspace());
        } catch (AssayException e) {
            return ToolResult.failed(e.problem());
        } catch (RuntimeException e) {
            // A tool bug must not end the case; the model sees the failure like any other.
            return ToolResult.failed(
                    Problem.of("tool.internal_error", session.workspace().hideRoot(tool.name() + " failed: " + e)));
        }
    }

    /** The case's {@code system} (a policy) first, then how to use the tools offered. */
    private String systemPrompt(Offer offer, SubjectInput input) {
        String tools = toolPrompt(offer, input.language());
        return input.system().isEmpty() || tools.isEmpty() ? input.system() + tools : input.system() + "\n\n" + tools;
    }

    private String toolPrompt(Offer offer, String language) {
        if (offer.byName().isEmpty()) {
            return "";
        }
        boolean chinese = language.startsWith("zh");
        // Declared functions alone have no workspace and no final_answer: the model answers in text when done.
        String intro = !offer.offersBuiltins()
                ? (chinese
                        ? "需要时调用提供的函数；完成后直接给出最终答案。"
                        : "Call the functions provided when they help; when you are done, give your final answer directly.")
                : chinese
                        ? "你在一个独立的工作区中工作，所有文件路径都相对于工作区根目录。需要时调用工具；完成后直接给出最终答案，" + "或调用 final_answer 工具。"
                        : "You work in an isolated workspace; every file path is relative to its root. Call tools when you "
                                + "need them; when you are done, give your final answer directly or call the final_answer tool.";
        return settings.toolMode() == ToolMode.TEXT
                ? intro + "\n\n" + TextToolPrompt.systemPrompt(offer.specs(), language)
                : intro;
    }
}
