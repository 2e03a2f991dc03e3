package dev.assay.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.target.Session;
import dev.assay.target.Target;
import dev.assay.transcript.Transcript;
import java.util.Set;
import java.util.TreeSet;

/**
 * The page's tool-coverage switches (the plan's {@code tool_names}): a target that claims only the allowed tools,
 * so the engine skips, with the reason, every case whose prerequisites name another one. The model behind it is
 * still offered its full tool list; only the selection of cases changes.
 */
final class ToolCoverage implements Target {
    private final Target target;
    private final Set<String> allowed;

    ToolCoverage(Target target, Set<String> allowed) {
        this.target = target;
        var kept = new TreeSet<>(target.toolNames());
        kept.retainAll(allowed);
        this.allowed = Set.copyOf(kept);
    }

    @Override
    public String name() {
        return target.name();
    }

    @Override
    public Set<String> toolNames() {
        return allowed;
    }

    @Override
    public Transcript run(Case evalCase, Session session) throws InterruptedException {
        return target.run(evalCase, session);
    }

    @Override
    public int maxConcurrency() {
        return target.maxConcurrency();
    }

    @Override
    public JsonNode describe() {
        JsonNode inner = target.describe();
        ObjectNode node = inner.isObject() ? ((ObjectNode) inner).deepCopy() : Json.object();
        node.set("tool_names", Json.tree(new TreeSet<>(allowed)));
        return node;
    }
}
