package dev.assay.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.assay.target.AgentSettings;
import dev.assay.target.ModelOptions;
import java.util.List;
import java.util.Objects;

/**
 * A named target of {@code assay.yaml}: a model for Assay's agent loop and how the loop drives it.
 *
 * @param name    the name users pick it by ({@code assay run --target NAME})
 * @param model   which model and how to reach it; the key is named by its variable ({@code api_key_env})
 * @param agent   tool mode, step limit and sampling settings
 * @param mcp     names of the {@code mcp_servers} this target gets; null for all of them, empty for none
 * @param options free-form settings for target kinds configured outside this file's fixed fields (an agent
 *                service, replay); JSON null when absent. Scanned for secrets like everything else
 */
public record TargetConfig(String name, ModelOptions model, AgentSettings agent, List<String> mcp, JsonNode options) {
    public TargetConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(model, "model");
        agent = agent == null ? AgentSettings.defaults() : agent;
        mcp = mcp == null ? null : List.copyOf(mcp);
        options = options == null ? NullNode.getInstance() : options.deepCopy();
    }
}
