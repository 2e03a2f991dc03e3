package dev.assay.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.Plugins;
import dev.assay.Problem;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.Sandboxes;
import dev.assay.sandbox.UnsandboxedSandbox;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolProvider;
import dev.assay.tools.ToolRequest;
import dev.assay.tools.Toolbox;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What a {@link SubjectFactory} is given to build a run's system under test. The tools are opened only when the factory
 * asks for them ({@link #tools()}): a subject that runs its own tools (an agent service) or none (a recording) leaves
 * the sandbox and the MCP servers alone. Not thread-safe: used by the thread preparing the run.
 */
public final class SubjectContext {
    /** The tool provider of MCP servers' tools (assay-mcp). */
    private static final String MCP = "mcp";

    private final EvalSpec spec;
    private final Plugins<ToolProvider> toolProviders;
    private final String argument;
    private final Function<String, String> env;
    private final Consumer<String> log;
    private final Sandboxes.Finder sandboxes;
    private final boolean containerTrials;
    private final Map<String, Toolbox> toolboxes = new LinkedHashMap<>();
    private Sandbox sandbox = new UnsandboxedSandbox();
    private List<Tool> tools;
    private Map<String, Problem> withheld = Map.of();

    public SubjectContext(
            EvalSpec spec,
            Plugins<ToolProvider> toolProviders,
            String argument,
            Function<String, String> env,
            Consumer<String> log,
            Sandboxes.Finder sandboxes,
            boolean containerTrials) {
        this.spec = spec;
        this.toolProviders = toolProviders;
        this.argument = argument;
        this.env = env;
        this.log = log;
        this.sandboxes = sandboxes;
        this.containerTrials = containerTrials;
    }

    /** {@return the run's description} */
    public EvalSpec spec() {
        return spec;
    }

    /** {@return what follows {@code NAME:} in {@code --subject NAME:ARGUMENT}; empty when nothing does} */
    public String argument() {
        return argument;
    }

    /** {@return reads environment variables (API keys and credentials only); front ends pass their environment} */
    public Function<String, String> env() {
        return env;
    }

    /** {@return receives progress lines for the user (retries, unavailable servers)} */
    public Consumer<String> log() {
        return log;
    }

    /**
     * {@return the tools to offer, opened on the first call}: every tool provider's (the workspace tools, the MCP
     * servers', plug-ins'), in provider order, filtered by the run's allowed-tool list. Commands run in the first
     * isolating sandbox usable here; without one, only on the user's explicit word, else execute_command is withheld
     * ({@link #withheldTools()}): an unconfined command could read the API key from Assay's own {@code /proc} entry.
     */
    public List<Tool> tools() throws InterruptedException {
        if (tools != null) {
            return tools;
        }
        ToolOptions options = spec.subject().tools();
        if (!options.mcpServers().isEmpty()) {
            // MCP servers were asked for: without assay-mcp on the class path that is an error, not a silent skip.
            toolProviders.get(MCP, "mcp_servers");
        }
        try {
            sandbox = Sandboxes.detect(options.allowUnsandboxedCommands(), sandboxes);
        } catch (AssayException e) {
            Problem why = Problem.of(
                    "sandbox.unavailable",
                    "execute_command needs a sandbox and bubblewrap is not usable here: install bubblewrap and "
                            + "util-linux, name an image for the case, or pass --allow-unsandboxed-commands to run "
                            + "commands unconfined");
            withheld = Map.of(ToolNames.EXECUTE_COMMAND, why);
            // A trial in a container runs its commands there: it is offered execute_command all the same.
            sandbox = containerTrials ? Sandboxes.trialsOnly(why) : null;
            log.accept("bubblewrap is not usable here, so execute_command is "
                    + (containerTrials
                            ? "offered only in the cases that name an image, and other "
                            : "not offered and ")
                    + "cases needing it are skipped (--allow-unsandboxed-commands runs commands unconfined)");
        }
        var toolRequest = new ToolRequest(sandbox, options.mcpServers(), options.mcpTimeout(), env, log);
        var offered = new ArrayList<Tool>();
        for (ToolProvider provider : toolProviders.all()) {
            Toolbox toolbox = provider.open(toolRequest);
            toolboxes.put(provider.name(), toolbox);
            offered.addAll(toolbox.tools());
        }
        var known = new TreeSet<>(withheld.keySet());
        offered.forEach(tool -> known.add(tool.name()));
        List<String> unknown = options.unknownAmong(known);
        if (!unknown.isEmpty()) {
            throw new AssayException(Problem.of(
                            "config.unknown_tool",
                            "no tool named " + String.join(", ", unknown) + " here; the tools are "
                                    + String.join(", ", known))
                    .withDetail("field", "tools"));
        }
        tools = options.filter(offered);
        return tools;
    }

    /**
     * {@return tools that would be offered but cannot be here, with the reason; empty until {@link #tools()}}: offered
     * none the less to a trial that has a sandbox of its own (its container), when the run has such trials
     */
    public Map<String, Problem> withheldTools() {
        return withheld;
    }

    /** {@return the sandbox commands run in: none for a subject that asked for no tools, null when unavailable} */
    public Sandbox sandbox() {
        return sandbox;
    }

    /** {@return the opened toolboxes, in provider order, each to be closed once the run has ended} */
    public List<Toolbox> toolboxes() {
        return List.copyOf(toolboxes.values());
    }

    /** {@return what the opened toolboxes record in the run's snapshot, each under its provider's name} */
    public Map<String, JsonNode> toolSnapshots() {
        var snapshots = new LinkedHashMap<String, JsonNode>();
        toolboxes.forEach((name, toolbox) -> {
            JsonNode snapshot = toolbox.snapshot();
            if (snapshot != null) {
                snapshots.put(name, snapshot);
            }
        });
        return snapshots;
    }
}
