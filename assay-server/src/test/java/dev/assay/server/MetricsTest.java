package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.EndpointUrl;
import dev.assay.testing.ScriptedOpenAiServer;
import io.micrometer.core.instrument.Metrics;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics} scraped before any run (the engine's gauges at 0) and after one: the engine's meters, the model
 * calls per endpoint, a 429 retried. In this order: a run registers the gauges anyway.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MetricsTest {
    @TempDir
    static Path home;

    static ServerFixture server;

    @BeforeAll
    static void startServer() throws Exception {
        // As in a fresh process: a run of another test in this JVM has registered the gauges already.
        for (String gauge : List.of("assay.runs.active", "assay.cases.waiting")) {
            Metrics.globalRegistry.find(gauge).meters().forEach(Metrics.globalRegistry::remove);
        }
        server = new ServerFixture(home);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    @Order(1)
    void a_scrape_before_any_run_shows_the_runs_and_cases_in_flight_as_zero() throws Exception {
        var scrape = server.get("/metrics");

        assertThat(scrape.status()).isEqualTo(200);
        assertThat(value(scrape.text(), "assay_runs_active")).isZero();
        assertThat(value(scrape.text(), "assay_cases_waiting")).isZero();
    }

    @Test
    @Order(2)
    void a_scrape_after_a_run_shows_its_cases_its_model_calls_and_a_retried_429() throws Exception {
        server.model.inject(ScriptedOpenAiServer.failure(429));
        String runId = server.start("basic.jsonl", "\"concurrency\": 1");
        assertThat(server.awaitEnd(runId).path("status").asText()).isEqualTo("finished");

        var scrape = server.get("/metrics");

        assertThat(scrape.status()).isEqualTo(200);
        String text = scrape.text();
        String endpoint = "endpoint=\"" + EndpointUrl.hostAndPort(server.model.baseUrl()) + "\"";
        assertThat(value(text, "assay_model_calls_seconds_count", endpoint, "outcome=\"ok\""))
                .isEqualTo(4);
        assertThat(value(text, "assay_model_calls_seconds_count", endpoint, "outcome=\"target.rate_limited\""))
                .isEqualTo(1);
        assertThat(value(text, "assay_model_retries_total", endpoint, "reason=\"target.rate_limited\""))
                .isEqualTo(1);
        assertThat(value(text, "assay_cases_finished_total", "status=\"passed\""))
                .isGreaterThanOrEqualTo(2);
        assertThat(value(text, "assay_cases_finished_total", "status=\"failed\""))
                .isGreaterThanOrEqualTo(2);
        assertThat(value(text, "assay_runs_active")).isZero();
        assertThat(value(text, "assay_cases_waiting")).isZero();
        assertThat(text).contains("jvm_memory_used_bytes");
    }

    /** {@return the value of the one sample of {@code name} whose labels include all of {@code labels}} */
    private static double value(String scrape, String name, String... labels) {
        Matcher sample = Pattern.compile("^" + name + "(\\{[^}]*})? (\\S+)$", Pattern.MULTILINE)
                .matcher(scrape);
        while (sample.find()) {
            String found = sample.group(1) == null ? "" : sample.group(1);
            boolean all = true;
            for (String label : labels) {
                all &= found.contains(label);
            }
            if (all) {
                return Double.parseDouble(sample.group(2));
            }
        }
        throw new AssertionError("no sample " + name + " with " + String.join(",", labels) + " in:\n" + scrape);
    }
}
