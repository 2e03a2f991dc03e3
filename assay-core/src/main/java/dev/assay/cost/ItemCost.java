package dev.assay.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.result.Item;
import dev.assay.transcript.Usage;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The tokens and cost of one item's model calls, by role. Read from what the item stores, so that a stored run's cost
 * is computed again from its items alone: every object named {@code usage} on a transcript event (the system under
 * test's model turns) or on a check's detail (a judge's call), holding {@code input_tokens}, {@code output_tokens} and
 * {@code cached_input_tokens}, and optionally {@code role} ({@code subject}, {@code judge}, {@code user}) and
 * {@code model}. Without them, an event's usage is the subject's, at the run's model, and a check's is a judge's, at
 * its {@code judge_model}. A part of Assay that calls a model for another role (a simulated user) records its usage the
 * same way, with its role, and is counted apart. A usage marked {@code from_response_cache} is an answer found in the
 * response cache ({@link Usage#fromResponseCache}): no call was sent, so its tokens are kept apart, neither in
 * {@code usage} nor priced, and no budget counts them. Immutable.
 *
 * @param usage tokens of the calls sent, by role; roles without a call are absent
 * @param costUsd cost by role in US dollars, of the calls whose model has a price; roles without a call are absent
 * @param unpriced the models called that the price table does not know; their tokens are counted, not costed
 * @param fromResponseCache the tokens of the answers found in the response cache instead, every role together
 */
public record ItemCost(
        Map<Role, Usage> usage, Map<Role, Double> costUsd, Set<String> unpriced, Usage fromResponseCache) {
    /** Where an item's checker detail keeps its cost, priced when it ended ({@link #withCost}). */
    public static final String FIELD = "cost";

    /** Where a usage record, and the cost's JSON, mark the tokens of answers found in the response cache. */
    private static final String FROM_RESPONSE_CACHE = "from_response_cache";

    /** An item that called no model. */
    public static final ItemCost NONE = new ItemCost(Map.of(), Map.of(), Set.of(), Usage.NONE);

    public ItemCost {
        usage = usage.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(usage));
        costUsd = costUsd.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(costUsd));
        unpriced = Collections.unmodifiableSet(new TreeSet<>(unpriced));
    }

    /**
     * {@return the cost of {@code item}'s model calls}
     *
     * @param subjectModel the model of the system under test, as the run names it ({@code openai:gpt-4o})
     */
    public static ItemCost of(Item item, String subjectModel, PriceTable prices) {
        JsonNode kept = item.checkerDetail().path(FIELD);
        if (kept.isObject()) {
            return fromJson(kept);
        }
        var tally = new Builder(prices);
        for (JsonNode event : item.transcript()) {
            tally.add(event.path("usage"), Role.SUBJECT, subjectModel);
        }
        for (JsonNode check : item.checkerDetail().path("checks")) {
            judgeCalls(tally, check.path("detail"), "");
        }
        return tally.build();
    }

    /**
     * Adds every judge call recorded in a check's detail: a judge keeps its {@code usage} beside its
     * {@code judge_model}, and a panel keeps one such detail per judge, so the records are found wherever they sit.
     */
    private static void judgeCalls(Builder tally, JsonNode node, String model) {
        if (node.isArray()) {
            node.forEach(element -> judgeCalls(tally, element, model));
        } else if (node.isObject()) {
            String named = node.path("judge_model").asText(model);
            tally.add(node.path("usage"), Role.JUDGE, named);
            node.properties().forEach(field -> {
                if (!field.getKey().equals("usage")) {
                    judgeCalls(tally, field.getValue(), named);
                }
            });
        }
    }

    /** {@return all roles' tokens} */
    public Usage totalUsage() {
        return usage.values().stream().reduce(Usage.NONE, Usage::plus);
    }

    /** {@return all roles' cost in US dollars} */
    public double totalUsd() {
        return costUsd.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** {@return a role's tokens; none when it made no call} */
    public Usage usage(Role role) {
        return usage.getOrDefault(role, Usage.NONE);
    }

    /** {@return a role's cost; 0 when it made no priced call} */
    public double usd(Role role) {
        return costUsd.getOrDefault(role, 0.0);
    }

    /** {@return this and {@code other} added} */
    public ItemCost plus(ItemCost other) {
        var sumUsage = new EnumMap<Role, Usage>(Role.class);
        var sumCost = new EnumMap<Role, Double>(Role.class);
        sumUsage.putAll(usage);
        sumCost.putAll(costUsd);
        other.usage.forEach((role, tokens) -> sumUsage.merge(role, tokens, Usage::plus));
        other.costUsd.forEach((role, usd) -> sumCost.merge(role, usd, Double::sum));
        var models = new TreeSet<>(unpriced);
        models.addAll(other.unpriced);
        return new ItemCost(sumUsage, sumCost, models, fromResponseCache.plus(other.fromResponseCache));
    }

    /**
     * {@return the JSON reports and the API give: {@code cost_usd}, {@code input_tokens}, {@code cached_input_tokens},
     * {@code output_tokens}, and {@code by_role} with each role's}, plus {@code unpriced_models} when a model had no
     * price and {@code from_response_cache} (its tokens, unpriced) when an answer was found in the response cache
     */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("cost_usd", totalUsd());
        tokens(node, totalUsage());
        ObjectNode roles = node.putObject("by_role");
        for (Role role : Role.values()) {
            if (usage.containsKey(role)) {
                tokens(roles.putObject(role.wireName()).put("cost_usd", usd(role)), usage(role));
            }
        }
        if (!unpriced.isEmpty()) {
            node.set("unpriced_models", Json.strings(unpriced));
        }
        if (fromResponseCache.totalTokens() > 0) {
            tokens(node.putObject(FROM_RESPONSE_CACHE), fromResponseCache);
        }
        return node;
    }

    /** {@return the cost {@link #toJson} wrote} */
    public static ItemCost fromJson(JsonNode node) {
        var usage = new EnumMap<Role, Usage>(Role.class);
        var cost = new EnumMap<Role, Double>(Role.class);
        node.path("by_role").properties().forEach(entry -> {
            Role role = Role.of(entry.getKey(), null);
            if (role != null) {
                JsonNode value = entry.getValue();
                usage.put(role, tokensOf(value));
                cost.put(role, value.path("cost_usd").asDouble(0));
            }
        });
        var models = new TreeSet<String>();
        node.path("unpriced_models").forEach(model -> models.add(model.asText()));
        return new ItemCost(usage, cost, models, tokensOf(node.path(FROM_RESPONSE_CACHE)));
    }

    /**
     * {@return {@code item} with its cost kept in its checker detail ({@link #FIELD}), priced now}, so that reports,
     * which read items without their transcripts, and later runs of other prices read the cost the run paid
     */
    public static Item withCost(Item item, String subjectModel, PriceTable prices) {
        ItemCost cost = of(item, subjectModel, prices);
        ObjectNode detail =
                item.checkerDetail().isObject() ? ((ObjectNode) item.checkerDetail()).deepCopy() : Json.object();
        detail.set(FIELD, cost.toJson());
        return item.withCheckerDetail(detail);
    }

    private static Usage tokensOf(JsonNode node) {
        return new Usage(
                node.path("input_tokens").asLong(0),
                node.path("output_tokens").asLong(0),
                node.path("cached_input_tokens").asLong(0));
    }

    private static void tokens(ObjectNode node, Usage usage) {
        node.put("input_tokens", usage.inputTokens());
        node.put("cached_input_tokens", usage.cachedInputTokens());
        node.put("output_tokens", usage.outputTokens());
    }

    /** Sums usage records as they are read. Not thread-safe. */
    public static final class Builder {
        private final PriceTable prices;
        private final Map<Role, Usage> usage = new EnumMap<>(Role.class);
        private final Map<Role, Double> cost = new EnumMap<>(Role.class);
        private final Set<String> unpriced = new TreeSet<>();
        private Usage fromResponseCache = Usage.NONE;

        Builder(PriceTable prices) {
            this.prices = prices;
        }

        /** Adds one usage record (ignored unless an object with token counts) of {@code role} at {@code model}. */
        public void add(JsonNode record, Role role, String model) {
            if (!record.isObject()) {
                return;
            }
            Usage tokens = tokensOf(record);
            if (tokens.totalTokens() == 0) {
                return;
            }
            if (record.path(FROM_RESPONSE_CACHE).asBoolean(false)) {
                fromResponseCache = fromResponseCache.plus(tokens);
                return;
            }
            Role actual = Role.of(record.path("role").asText(""), role);
            String priced = record.path("model").asText(model);
            usage.merge(actual, tokens, Usage::plus);
            var price = prices.find(priced);
            if (price.isPresent()) {
                cost.merge(actual, price.get().cost(tokens), Double::sum);
            } else {
                unpriced.add(priced.isEmpty() ? "(unnamed)" : priced);
            }
        }

        public ItemCost build() {
            return new ItemCost(usage, cost, unpriced, fromResponseCache);
        }
    }
}
