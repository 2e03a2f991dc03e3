package dev.assay.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.check.Verdict;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.transcript.Usage;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PriceTableTest {
    @Test
    void the_shipped_table_names_its_date_and_prices_dated_snapshots_as_their_model() {
        PriceTable shipped = PriceTable.shipped();

        assertThat(shipped.takenOn()).matches("\\d{4}-\\d{2}-\\d{2}");
        assertThat(shipped.find("openai:gpt-4o-mini-2024-07-18")).isEqualTo(shipped.find("gpt-4o-mini"));
        assertThat(shipped.find("anthropic:claude-sonnet-4-5-20250929")).isEqualTo(shipped.find("claude-sonnet-4-5"));
        assertThat(shipped.find("openai:gpt-4.1-mini")).isNotEqualTo(shipped.find("gpt-4.1"));
        assertThat(shipped.find("openai:no-such-model")).isEmpty();
        assertThat(shipped.find("mock")).contains(Price.FREE);
    }

    @Test
    void cached_prompt_tokens_are_priced_at_the_cached_price() {
        var price = new Price(2.0, 0.5, 8.0);

        assertThat(price.cost(new Usage(1_000_000, 1_000_000, 400_000))).isCloseTo(1.2 + 0.2 + 8.0, within(1e-12));
    }

    @Test
    void a_judges_tokens_are_counted_and_priced_apart_from_the_subjects() {
        var detail = Json.object();
        // As the judge checker writes a verdict: its evidence under the check's "detail".
        detail.putArray("checks")
                .addObject()
                .put("checker", "judge")
                .putObject("detail")
                .put("judge_model", "openai:gpt-4o")
                .putObject("usage")
                .put("input_tokens", 1_000_000)
                .put("output_tokens", 0);
        var transcript = Json.MAPPER.createArrayNode();
        transcript.addObject().put("type", "model_turn").putObject("usage").put("input_tokens", 1_000_000);
        var item = new Item(
                "r",
                "c",
                0,
                "logic",
                ItemStatus.PASSED,
                1,
                1,
                1,
                "",
                "",
                List.of(),
                detail,
                null,
                transcript,
                Instant.EPOCH,
                Instant.EPOCH,
                0);

        ItemCost cost = ItemCost.of(item, "openai:gpt-4o-mini", PriceTable.shipped());

        assertThat(cost.usd(Role.SUBJECT)).isCloseTo(0.15, within(1e-12));
        assertThat(cost.usd(Role.JUDGE)).isCloseTo(2.50, within(1e-12));
        assertThat(ItemCost.fromJson(cost.toJson())).isEqualTo(cost);
    }

    @Test
    void every_judge_of_a_panel_is_counted_at_its_own_model() {
        var panel = Json.object();
        var judges = panel.put("aggregation", "majority").putArray("judges");
        judges.addObject()
                .put("judge_model", "openai:gpt-4o")
                .putObject("usage")
                .put("role", "judge")
                .put("model", "openai:gpt-4o")
                .put("input_tokens", 1_000_000)
                .put("output_tokens", 0);
        judges.addObject()
                .put("judge_model", "openai:gpt-4o-mini")
                .putObject("usage")
                .put("role", "judge")
                .put("model", "openai:gpt-4o-mini")
                .put("input_tokens", 1_000_000)
                .put("output_tokens", 0);
        var detail = Json.object();
        detail.putArray("checks").add(Verdict.passed(panel).toJson().put("checker", "judge"));
        var item = new Item(
                "r",
                "c",
                0,
                "logic",
                ItemStatus.PASSED,
                1,
                1,
                1,
                "",
                "",
                List.of(),
                detail,
                null,
                Json.MAPPER.createArrayNode(),
                Instant.EPOCH,
                Instant.EPOCH,
                0);

        ItemCost cost = ItemCost.of(item, "openai:gpt-4o-mini", PriceTable.shipped());

        assertThat(cost.usd(Role.JUDGE)).isCloseTo(2.50 + 0.15, within(1e-12));
        assertThat(cost.usage(Role.JUDGE).inputTokens()).isEqualTo(2_000_000);
        assertThat(cost.usd(Role.SUBJECT)).isZero();
    }

    @Test
    void a_negative_or_missing_price_is_refused_naming_the_model() {
        var prices = Json.object();
        prices.putObject("m").put("input", -1).put("output", 1);

        assertThatThrownBy(() -> PriceTable.parse(prices, "prices"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().details()).containsEntry("field", "prices.m"));
    }
}
