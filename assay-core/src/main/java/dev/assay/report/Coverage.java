package dev.assay.report;

import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.ToolCallView;
import dev.assay.run.EvalSpec;
import dev.assay.tools.McpServerState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Tool coverage of one run (docs/api.md, "Tool coverage"): which of the tools offered to the target its cases
 * exercised, which were never called, how the cases of each coverage tag ended, and why each skipped case was skipped.
 * Computed from stored data only (the run's tool snapshot and configuration, its items, the case tags of its case set),
 * so it can be rebuilt for any past run.
 *
 * @param available the tools offered to the target (the run's tool snapshot), sorted
 * @param calls tool name to how many times the run's cases called it, sorted by name; includes tools that were called
 *     but not offered (the model invented them)
 * @param exercised available tools called at least once, sorted
 * @param neverCalled available tools no case called, sorted
 * @param byTag coverage tag to the outcomes of the cases carrying it; the plan's six tags (builtin, mcp, skill,
 *     knowledge, user, shared) are always present, other tags follow in name order
 * @param skipped the skipped cases with their reasons, in selection order
 */
public record Coverage(
        List<String> available,
        Map<String, Integer> calls,
        List<String> exercised,
        List<String> neverCalled,
        Map<String, Counts> byTag,
        List<Skip> skipped) {

    /** The coverage tags the plan names, in its order. */
    public static final List<String> TAGS = List.of("builtin", "mcp", "skill", "knowledge", "user", "shared");

    public Coverage {
        available = List.copyOf(available);
        calls = Collections.unmodifiableMap(new LinkedHashMap<>(calls));
        exercised = List.copyOf(exercised);
        neverCalled = List.copyOf(neverCalled);
        byTag = Collections.unmodifiableMap(new LinkedHashMap<>(byTag));
        skipped = List.copyOf(skipped);
    }

    /**
     * Why one case was skipped.
     *
     * @param caseId the case
     * @param type the machine-readable reason ({@code case.missing_tools}, a checker's skip type...)
     * @param reason the reason for people
     * @param missingTools tool names the case needed and the target lacked, each with what is known about why (for
     *     {@code server@tool} names, from the run's MCP snapshot); empty values when nothing more is known
     */
    public record Skip(String caseId, String type, String reason, Map<String, String> missingTools) {
        public Skip {
            missingTools = Collections.unmodifiableMap(new LinkedHashMap<>(missingTools));
        }
    }

    /**
     * The coverage of a run's items as they are gone through, in the memory of the figures: a large run's items are
     * read from the store for each pass, so the report counts them in the pass it makes for its other figures. Not
     * thread-safe.
     */
    static final class Tally {
        private final Run run;
        private final List<McpServerState> mcp;
        private final Map<String, Integer> calls = new TreeMap<>();
        private final Map<String, Counts> byPlanTag = new LinkedHashMap<>();
        private final Map<String, Counts> byOtherTag = new TreeMap<>();
        private final List<Skip> skipped = new ArrayList<>();

        /**
         * @param run the run; its {@code tool_snapshot} lists the offered tools and {@code config.mcp} (when present)
         *     the MCP servers as the run's snapshot describes them ({@code mcp})
         */
        Tally(Run run) {
            this.run = run;
            this.mcp = EvalSpec.of(run).observed().mcpServers();
            run.toolSnapshot().forEach(tool -> calls.put(tool, 0));
            TAGS.forEach(tag -> byPlanTag.put(tag, Counts.ZERO));
        }

        /** Counts one item, which carries these tags (its case's; none for an untagged case). */
        void accept(Item item, List<String> tags) {
            for (ToolCallView call : item.toolCalls()) {
                calls.merge(call.name(), 1, Integer::sum);
            }
            for (String tag : tags) {
                (TAGS.contains(tag) ? byPlanTag : byOtherTag)
                        .merge(tag, Counts.ZERO.plus(item.status()), (sum, one) -> sum.plus(item.status()));
            }
            if (item.status() == ItemStatus.SKIPPED) {
                skipped.add(skip(mcp, item));
            }
        }

        Coverage coverage() {
            List<String> available = run.toolSnapshot().stream().sorted().toList();
            var counted = new TreeMap<String, Integer>();
            calls.forEach((tool, count) -> {
                if (count > 0 || available.contains(tool)) {
                    counted.put(tool, count);
                }
            });
            var byTag = new LinkedHashMap<String, Counts>();
            byPlanTag.forEach((tag, counts) -> byTag.put(tag, counts.withTotal(counts.completed())));
            byOtherTag.forEach((tag, counts) -> byTag.put(tag, counts.withTotal(counts.completed())));
            return new Coverage(
                    available,
                    counted,
                    available.stream().filter(tool -> counted.get(tool) > 0).toList(),
                    available.stream().filter(tool -> counted.get(tool) == 0).toList(),
                    byTag,
                    skipped);
        }
    }

    private static Skip skip(List<McpServerState> mcp, Item item) {
        if (item.error() == null) {
            return new Skip(item.caseId(), "", "", Map.of());
        }
        var missing = new LinkedHashMap<String, String>();
        if (item.error().details().get("missing_tools") instanceof List<?> tools) {
            tools.forEach(tool -> missing.put(String.valueOf(tool), ""));
            missing.putAll(McpServerState.skipReasons(mcp, missing.keySet()));
        }
        return new Skip(item.caseId(), item.error().type(), item.error().message(), missing);
    }

    /** {@return how many available tools were exercised, as a fraction in [0, 1]; null when none were offered} */
    @com.fasterxml.jackson.annotation.JsonProperty("exercised_share")
    public Double exercisedShare() {
        return available.isEmpty() ? null : (double) exercised.size() / available.size();
    }
}
