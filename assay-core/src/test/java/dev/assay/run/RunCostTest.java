package dev.assay.run;

import static dev.assay.testing.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.check.CheckerRegistry;
import dev.assay.config.AssayConfig;
import dev.assay.cost.Budget;
import dev.assay.cost.Price;
import dev.assay.model.ModelOptions;
import dev.assay.model.RetryPolicy;
import dev.assay.report.Reporters;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.result.RunStatus;
import dev.assay.store.Store;
import dev.assay.store.Stores;
import dev.assay.testing.ScriptedOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a run costs and the limits on it, against a scripted model whose every answer uses 10 prompt tokens (4 of them
 * cached) and 5 completion tokens: at the prices below an answer costs (6 * 1000 + 4 * 500 + 5 * 2000) / 10^6 = 0.018
 * USD.
 */
class RunCostTest {
    private static final double CASE_USD = 0.018;
    private static final Map<String, Price> PRICES = Map.of("scripted", new Price(1000, 500, 2000));

    @TempDir
    Path temp;

    private Path suite() throws Exception {
        Path suite = temp.resolve("suite.jsonl");
        Files.writeString(suite, """
                {"id": "a", "dimension": "logic", "prompt": "Say done (a).", "checker": "contains", "expected": "done"}
                {"id": "b", "dimension": "logic", "prompt": "Say done (b).", "checker": "contains", "expected": "done"}
                {"id": "c", "dimension": "logic", "prompt": "Say done (c).", "checker": "contains", "expected": "done"}
                {"id": "d", "dimension": "tool", "prompt": "Say done (d).", "checker": "contains", "expected": "done"}
                {"id": "e", "dimension": "tool", "prompt": "Say done (e).", "checker": "contains", "expected": "done"}
                """);
        return suite;
    }

    private RunSettings settings(ScriptedOpenAiServer server) throws Exception {
        return new RunSettings()
                .suites(List.of(suite()))
                .model(new ModelOptions("openai:scripted", server.baseUrl(), null, false, null, RetryPolicy.none()))
                .concurrency(1)
                .prices(PRICES);
    }

    private Run run(Store store, EvalSpec request) throws Exception {
        try (var prepared = request.prepare(
                null, temp.resolve("work"), CheckerRegistry.builtins(), Map.<String, String>of()::get, line -> {})) {
            return new Engine(store).run(prepared.plan(), RunListener.NONE);
        }
    }

    private Store store() {
        return Stores.open("jdbc:sqlite:" + temp.resolve("assay.db"));
    }

    @Test
    void report_json_holds_the_exact_cost_of_each_item_dimension_and_the_run() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("done")));
                Store store = store()) {
            Run run = run(store, settings(server).resolve());
            Reporters.builtins().writeAll(RunReport.load(store, run.runId()), temp.resolve("out"));

            JsonNode report =
                    Json.MAPPER.readTree(temp.resolve("out/report.json").toFile());
            assertThat(report.path("cost_usd").asDouble()).isCloseTo(5 * CASE_USD, within(1e-12));
            assertThat(report.at("/cost/by_dimension/logic/cost_usd").asDouble())
                    .isCloseTo(3 * CASE_USD, within(1e-12));
            assertThat(report.at("/cost/by_dimension/tool/cost_usd").asDouble()).isCloseTo(2 * CASE_USD, within(1e-12));
            assertThat(report.at("/cost/by_case/a/cost_usd").asDouble()).isCloseTo(CASE_USD, within(1e-12));
            assertThat(report.at("/cost/by_role/subject/cached_input_tokens").asLong())
                    .isEqualTo(20);
            assertThat(report.at("/cost/input_tokens").asLong()).isEqualTo(50);
            assertThat(report.at("/cost/output_tokens").asLong()).isEqualTo(25);
            for (JsonNode item : report.path("items")) {
                assertThat(item.path("cost_usd").asDouble()).isCloseTo(CASE_USD, within(1e-12));
            }
        }
    }

    @Test
    void a_run_stops_starting_cases_at_its_cost_limit_and_a_higher_limit_finishes_it_paying_nothing_twice()
            throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("done")));
                Store store = store()) {
            double limit = 0.04;
            Run stopped = run(store, settings(server).maxCostUsd(limit).resolve());

            assertThat(stopped.status()).isEqualTo(RunStatus.INTERRUPTED);
            assertThat(stopped.error().type()).isEqualTo(Budget.EXHAUSTED);
            assertThat(stopped.error().details()).containsEntry("limit", "max_cost_usd");
            double spent = RunReport.load(store, stopped.runId()).cost().total().totalUsd();
            // Within one case's cost of the limit: the case that crossed it is the last that started.
            assertThat(spent).isGreaterThanOrEqualTo(limit).isLessThan(limit + CASE_USD);
            assertThat(store.countItems(stopped.runId())).isEqualTo(3);
            assertThat(server.requests()).hasSize(3);

            EvalSpec again = EvalSpec.toResume(store.findRun(stopped.runId()).orElseThrow());
            Run finished;
            try (var prepared = again.prepare(
                    stopped.runId(),
                    temp.resolve("work"),
                    CheckerRegistry.builtins(),
                    Map.<String, String>of()::get,
                    line -> {})) {
                Run stored = store.findRun(stopped.runId()).orElseThrow();
                finished = new Engine(store)
                        .resume(
                                prepared.planOf(stored).withBudget(new Budget(1.0, null, null)),
                                false,
                                RunListener.NONE)
                        .await();
            }

            assertThat(finished.status()).isEqualTo(RunStatus.FINISHED);
            assertThat(finished.counts().passed()).isEqualTo(5);
            // Five cases, five requests: none of the three stored before was asked again.
            assertThat(server.requests()).hasSize(5);
            assertThat(RunReport.load(store, finished.runId()).cost().total().totalUsd())
                    .isCloseTo(5 * CASE_USD, within(1e-12));
        }
    }

    @Test
    void a_run_stops_starting_cases_at_its_token_limit() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("done")));
                Store store = store()) {
            Run stopped = run(store, settings(server).runMaxTokens(30L).resolve());

            assertThat(stopped.status()).isEqualTo(RunStatus.INTERRUPTED);
            assertThat(stopped.error().details()).containsEntry("limit", "run_max_tokens");
            assertThat(server.requests()).hasSize(2);
        }
    }

    @Test
    void a_case_over_its_token_limit_is_an_error_item_of_its_own_type() throws Exception {
        try (var server = ScriptedOpenAiServer.start(ScriptedOpenAiServer.always(text("done")));
                Store store = store()) {
            Run run = run(store, settings(server).caseMaxTokens(10L).resolve());

            Item item = RunReport.load(store, run.runId()).items().getFirst();
            assertThat(item.status()).isEqualTo(ItemStatus.ERROR);
            assertThat(item.error().type()).isEqualTo("case.token_limit_exceeded");
            assertThat(item.costUsd()).isCloseTo(CASE_USD, within(1e-12));
        }
    }

    @Test
    void assay_yaml_prices_replace_the_shipped_ones_and_cached_input_defaults_to_input() throws Exception {
        Path yaml = temp.resolve("assay.yaml");
        Files.writeString(yaml, """
                prices:
                  gpt-4o-mini: {input: 1, cached_input: 0.5, output: 2}
                  my-model: {input: 3, output: 4}
                defaults:
                  max_cost_usd: 2.5
                """);
        AssayConfig config = AssayConfig.load(yaml);
        EvalSpec request = RunSettings.resolve(List.of(
                config.settings(null),
                new RunSettings().suites(List.of(suite())).model(ModelOptions.of("openai:my-model"))));

        assertThat(request.limits().prices().find("openai:gpt-4o-mini")).contains(new Price(1, 0.5, 2));
        assertThat(request.limits().prices().find("openai:my-model-2025-01-01")).contains(new Price(3, 3, 4));
        assertThat(request.limits().budget().maxCostUsd()).isEqualTo(2.5);
    }
}
