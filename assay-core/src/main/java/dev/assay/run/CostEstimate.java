package dev.assay.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import dev.assay.cost.ItemCost;
import dev.assay.cost.PriceTable;
import dev.assay.cost.Role;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.store.ItemFields;
import dev.assay.store.RunQuery;
import dev.assay.store.Store;
import dev.assay.transcript.Usage;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run would cost, estimated before anything is called ({@code assay run --dry-run}; docs/cost.md, "Dry run").
 * Where the store holds runs of the same suite by the same model, each item is taken to cost what theirs did on average
 * (every role, the agent loop's system prompt, tools and later steps included); otherwise the prompts' tokens are
 * estimated as their characters divided by four, and each item's output as {@link #ASSUMED_OUTPUT_TOKENS}.
 *
 * @param suite the suite's name
 * @param items the items the run would have: selected cases times samples
 * @param model the model of the system under test, as named
 * @param lines the estimate by role (the subject always, others where past runs had them)
 * @param pastRuns how many past runs the estimate reads; 0 when it is made from the prompts alone
 * @param pastItems how many of their items
 */
public record CostEstimate(String suite, int items, String model, List<Line> lines, int pastRuns, int pastItems) {
    /** The output tokens each item is assumed to produce when no past run says better. */
    public static final long ASSUMED_OUTPUT_TOKENS = 500;

    /** Characters per token of the prompt estimate: the usual rule of thumb for English text and code. */
    public static final int CHARACTERS_PER_TOKEN = 4;

    /** The past runs read at most, newest first. */
    private static final int PAST_RUNS = 3;

    private static final int PAGE = 500;

    public CostEstimate {
        lines = List.copyOf(lines);
    }

    /**
     * One role's estimate.
     *
     * @param role {@code subject}, {@code judge} or {@code user}
     * @param model the model, where known (the subject's); empty otherwise
     * @param inputTokens input tokens expected
     * @param outputTokens output tokens expected
     * @param costUsd the expected cost in US dollars; null when the model has no price
     */
    public record Line(String role, String model, long inputTokens, long outputTokens, Double costUsd) {}

    /** {@return the expected cost of every role together; the lines without a price left out} */
    public double totalUsd() {
        return lines.stream()
                .filter(line -> line.costUsd() != null)
                .mapToDouble(Line::costUsd)
                .sum();
    }

    /**
     * Estimates {@code spec} without calling anything: reads and selects its cases, and the store's past runs of the
     * same suite by the same model.
     */
    public static CostEstimate of(EvalSpec spec, CheckerRegistry checkers, Store store) {
        EvalSpec.Dataset dataset = spec.dataset();
        Suite suite = dataset.selection()
                .select(new SuiteLoader(checkers).load(dataset.suites()).suite(dataset.skipInvalid()));
        int samples = spec.limits().samples();
        int items = suite.cases().size() * samples;
        String model = spec.subject().sut() instanceof EvalSpec.Model given
                ? given.options().model()
                : "";
        ItemCost past = ItemCost.NONE;
        int pastRuns = 0;
        int pastItems = 0;
        if (!model.isEmpty()) {
            for (Run run : store.listRuns(new RunQuery(null, model, null, RunKind.CAPABILITY, null, null, 0, 100))) {
                if (pastRuns == PAST_RUNS) {
                    break;
                }
                if (!run.caseSet().equals(suite.name())
                        || !run.modelName().equals(model)
                        || run.status() == RunStatus.RUNNING) {
                    continue;
                }
                int before = pastItems;
                PriceTable prices = EvalSpec.of(run).limits().prices();
                for (int offset = 0; ; offset += PAGE) {
                    List<Item> page = store.listItems(run.runId(), offset, PAGE, ItemFields.BRIEF);
                    for (Item item : page) {
                        // Only items that kept their cost: the others were stored before Assay counted it.
                        if (item.checkerDetail().path(ItemCost.FIELD).isObject()) {
                            past = past.plus(ItemCost.of(item, run.modelName(), prices));
                            pastItems++;
                        }
                    }
                    if (page.size() < PAGE) {
                        break;
                    }
                }
                if (pastItems > before) {
                    pastRuns++;
                }
            }
        }
        var lines = new ArrayList<Line>();
        var price = spec.limits().prices().find(model);
        if (pastItems == 0) {
            long promptTokens = 0;
            for (Case evalCase : suite.cases()) {
                promptTokens += (evalCase.prompt().length() + CHARACTERS_PER_TOKEN - 1) / CHARACTERS_PER_TOKEN;
            }
            var usage = new Usage(promptTokens * samples, ASSUMED_OUTPUT_TOKENS * items);
            lines.add(new Line(
                    Role.SUBJECT.wireName(),
                    model,
                    usage.inputTokens(),
                    usage.outputTokens(),
                    price.map(found -> found.cost(usage)).orElse(null)));
        } else {
            double scale = (double) items / pastItems;
            for (Role role : Role.values()) {
                Usage usage = past.usage(role);
                if (usage.totalTokens() == 0) {
                    continue;
                }
                lines.add(new Line(
                        role.wireName(),
                        role == Role.SUBJECT ? model : "",
                        Math.round(usage.inputTokens() * scale),
                        Math.round(usage.outputTokens() * scale),
                        past.costUsd().containsKey(role) ? past.usd(role) * scale : null));
            }
        }
        return new CostEstimate(suite.name(), items, model, lines, pastRuns, pastItems);
    }

    /** {@return the estimate as {@code --format json} prints it} */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("dry_run", true);
        node.put("suite", suite);
        node.put("items", items);
        node.put("model", model);
        node.put("estimated_cost_usd", totalUsd());
        node.put("past_runs", pastRuns);
        node.put("past_items", pastItems);
        node.set("by_role", Json.tree(lines));
        return node;
    }
}
