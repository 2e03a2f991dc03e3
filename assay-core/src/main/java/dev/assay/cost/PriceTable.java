package dev.assay.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The price of each model Assay can put a cost on, by model id ({@code gpt-4o-mini}, {@code claude-sonnet-4-5}). Assay
 * ships one for the common OpenAI and Anthropic models ({@code dev/assay/cost/prices.json}, with the date its prices
 * were taken), {@code assay.yaml}'s {@code prices} replaces or adds entries, and a run keeps the table it used in its
 * snapshot, so that its costs read the same later. Immutable and thread-safe.
 *
 * @param prices model id to price
 * @param takenOn when the shipped prices were taken from the providers' pages ({@code YYYY-MM-DD}); empty when unknown
 */
public record PriceTable(Map<String, Price> prices, String takenOn) {
    private static final String RESOURCE = "/dev/assay/cost/prices.json";
    private static final PriceTable SHIPPED = load();

    public PriceTable {
        prices = Collections.unmodifiableMap(new TreeMap<>(prices));
        takenOn = takenOn == null ? "" : takenOn;
    }

    /** {@return the table Assay ships} */
    public static PriceTable shipped() {
        return SHIPPED;
    }

    /** {@return this table with {@code overrides} replacing or adding entries} */
    public PriceTable with(Map<String, Price> overrides) {
        if (overrides == null || overrides.isEmpty()) {
            return this;
        }
        var merged = new TreeMap<>(prices);
        merged.putAll(overrides);
        return new PriceTable(merged, takenOn);
    }

    /**
     * {@return the price of {@code model}, or empty when the table has none}: the name as given, else without its model
     * kind ({@code openai:gpt-4o} is {@code gpt-4o}), else the longest entry it starts with followed by {@code -}, so
     * that a dated snapshot ({@code gpt-4o-2024-08-06}) costs what its model costs.
     */
    public Optional<Price> find(String model) {
        if (model == null || model.isEmpty()) {
            return Optional.empty();
        }
        Price exact = prices.get(model);
        if (exact != null) {
            return Optional.of(exact);
        }
        int colon = model.indexOf(':');
        String id = colon > 0 && model.substring(0, colon).chars().allMatch(Character::isLetter)
                ? model.substring(colon + 1)
                : model;
        Price byId = prices.get(id);
        if (byId != null) {
            return Optional.of(byId);
        }
        String best = null;
        for (String key : prices.keySet()) {
            if (id.startsWith(key + "-") && (best == null || key.length() > best.length())) {
                best = key;
            }
        }
        return best == null ? Optional.empty() : Optional.of(prices.get(best));
    }

    /** {@return the table as a run's snapshot keeps it: {@code {MODEL: {input, cached_input, output}}}} */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        prices.forEach((model, price) -> node.putObject(model)
                .put("input", price.input())
                .put("cached_input", price.cachedInput())
                .put("output", price.output()));
        return node;
    }

    /**
     * {@return the prices of {@code node}, {@code {MODEL: {input, cached_input, output}}} in USD per million tokens},
     * as {@code assay.yaml} and a run's snapshot hold them; {@code cached_input} defaults to {@code input}
     *
     * @param field where the node was read, named in a problem ({@code prices})
     * @throws AssayException {@code config.invalid_prices} naming the model and the field
     */
    public static Map<String, Price> parse(JsonNode node, String field) {
        var out = new TreeMap<String, Price>();
        if (node == null || node.isMissingNode() || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw invalid(field, "a map of model to {input, cached_input, output} in USD per million tokens");
        }
        for (var entry : node.properties()) {
            String at = field + "." + entry.getKey();
            JsonNode price = entry.getValue();
            if (!price.isObject()
                    || !price.path("input").isNumber()
                    || !price.path("output").isNumber()
                    || !(price.path("cached_input").isMissingNode()
                            || price.path("cached_input").isNumber())) {
                throw invalid(
                        at, "input and output (and optionally cached_input) as numbers, in USD per million tokens");
            }
            double input = price.path("input").asDouble();
            try {
                out.put(
                        entry.getKey(),
                        new Price(
                                input,
                                price.path("cached_input").asDouble(input),
                                price.path("output").asDouble()));
            } catch (IllegalArgumentException negative) {
                throw invalid(at, "prices that are not negative");
            }
        }
        return out;
    }

    /** {@return the prices a run's snapshot kept, over the shipped table (a run stored before Assay kept them)} */
    public static PriceTable ofSnapshot(JsonNode snapshot) {
        JsonNode kept = snapshot == null ? null : snapshot.path("prices");
        if (kept == null || !kept.isObject()) {
            return SHIPPED;
        }
        return new PriceTable(
                parse(kept, "prices"), snapshot.path("prices_taken_on").asText(SHIPPED.takenOn()));
    }

    private static AssayException invalid(String field, String expected) {
        return new AssayException(Problem.of("config.invalid_prices", field + ": expected " + expected)
                .withDetail("field", field));
    }

    private static PriceTable load() {
        try (InputStream in = PriceTable.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            JsonNode root = Json.MAPPER.readTree(in);
            return new PriceTable(
                    parse(root.path("prices"), RESOURCE), root.path("taken_on").asText(""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
