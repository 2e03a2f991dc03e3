package dev.assay.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.assay.model.ModelOptions;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.sse.SseAgentSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A named target of {@code assay.yaml}: a model for Assay's agent loop and how the loop drives it, an agent service
 * that runs its own loop, or a recording to re-score. Exactly one of {@code model}, {@code agentService} and
 * {@code replay} is given.
 *
 * @param name the name users pick it by ({@code assay run --target NAME})
 * @param model which model and how to reach it; the key is named by its variable ({@code api_key_env}); null for an
 *     agent service or a replay
 * @param agent tool mode, step limit and sampling settings
 * @param mcp names of the {@code mcp_servers} this target gets; null for all of them, empty for none
 * @param options free-form settings for target kinds configured outside this file's fixed fields (an agent service,
 *     replay); JSON null when absent. Scanned for secrets like everything else
 * @param agentService an agent service streaming SSE events ({@code agent:} in the file); null otherwise
 * @param replay a recording to re-score ({@code replay:}, relative to the file); null otherwise
 */
public record SubjectConfig(
        String name,
        ModelOptions model,
        AgentSettings agent,
        List<String> mcp,
        JsonNode options,
        SseAgentSettings agentService,
        Path replay) {
    public SubjectConfig {
        Objects.requireNonNull(name, "name");
        int kinds = (model != null ? 1 : 0) + (agentService != null ? 1 : 0) + (replay != null ? 1 : 0);
        if (kinds != 1) {
            throw new IllegalArgumentException("a target is exactly one of a model, an agent service and a replay");
        }
        agent = agent == null ? AgentSettings.defaults() : agent;
        mcp = mcp == null ? null : List.copyOf(mcp);
        options = options == null ? NullNode.getInstance() : options.deepCopy();
    }

    /** A model target. */
    public SubjectConfig(String name, ModelOptions model, AgentSettings agent, List<String> mcp, JsonNode options) {
        this(name, model, agent, mcp, options, null, null);
    }
}
