package dev.assay.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.Suite;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.RetryPolicy;
import dev.assay.model.openai.OpenAiChatModel;
import dev.assay.model.openai.OpenAiSettings;
import dev.assay.report.RunReport;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.result.TrialId;
import dev.assay.store.Stores;
import dev.assay.subject.AgentSettings;
import dev.assay.subject.AgentSubject;
import dev.assay.testing.ScriptedOpenAiServer;
import dev.assay.testing.TestSpecs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several answers per case: each sample is an item, and reports give the unbiased pass@k. */
class SamplesTest {
    @TempDir
    Path temp;

    @Test
    void each_sample_is_an_item_and_the_report_gives_pass_at_k() throws Exception {
        var flakyCalls = new AtomicInteger();
        // The flaky case is answered right on its 1st and 2nd sample and wrong on its 3rd.
        try (var server = ScriptedOpenAiServer.start(
                        request -> request.firstUserText().contains("flaky")
                                ? ScriptedOpenAiServer.text(flakyCalls.incrementAndGet() <= 2 ? "ok" : "no")
                                : ScriptedOpenAiServer.text("no"));
                var store = Stores.open("jdbc:sqlite:" + temp.resolve("a.db"))) {
            var model = new OpenAiChatModel(
                    new OpenAiSettings("scripted", server.baseUrl(), "", false, null, RetryPolicy.none()), line -> {});
            var cases = List.of(
                    Case.of("flaky", "logic", "flaky question", Check.of("exact", Json.parse("\"ok\""))),
                    Case.of("hard", "logic", "hard question", Check.of("exact", Json.parse("\"ok\""))));
            var plan = new RunPlan(
                    new Suite("samples", "v1", cases, Map.of(), List.of()),
                    new AgentSubject(model, List.of(), AgentSettings.defaults(), 1),
                    TestSpecs.config(
                            temp.resolve("work"),
                            settings -> settings.concurrency(1).samples(3)),
                    CheckerRegistry.builtins());
            Run run = new Engine(store).run(plan, RunListener.NONE);

            assertThat(run.counts().total()).isEqualTo(6);
            var report = RunReport.load(store, run.runId());
            assertThat(report.items())
                    .extracting(Item::caseId)
                    .containsExactly("flaky#1", "flaky#2", "flaky#3", "hard#1", "hard#2", "hard#3");
            // Each item read back carries its trial as a value, from its stored id and position.
            assertThat(report.items())
                    .extracting(Item::trial)
                    .containsExactly(
                            new TrialId("flaky", 1),
                            new TrialId("flaky", 2),
                            new TrialId("flaky", 3),
                            new TrialId("hard", 1),
                            new TrialId("hard", 2),
                            new TrialId("hard", 3));
            assertThat(report.samples()).isEqualTo(3);
            // flaky: n=3, c=2 -> pass@1 = 2/3, pass@2 = pass@3 = 1; hard: c=0 -> 0. Means over the two cases:
            assertThat(report.passAtK().get(1)).isCloseTo(1.0 / 3, within(1e-12));
            assertThat(report.passAtK().get(2)).isCloseTo(0.5, within(1e-12));
            assertThat(report.passAtK().get(3)).isCloseTo(0.5, within(1e-12));
            assertThat(run.dimensionScores().get("logic")).isCloseTo(2.0 / 6, within(1e-12));
            // pass^k: flaky C(2,k)/C(3,k) = 2/3, 1/3, 0; hard 0.
            assertThat(report.passHatK().get(1)).isCloseTo(1.0 / 3, within(1e-12));
            assertThat(report.passHatK().get(2)).isCloseTo(1.0 / 6, within(1e-12));
            assertThat(report.passHatK().get(3)).isZero();
            var flaky = report.sampleSpreads().get("flaky");
            assertThat(flaky.samples()).isEqualTo(3);
            assertThat(flaky.passed()).isEqualTo(2);
            assertThat(flaky.min()).isZero();
            assertThat(flaky.max()).isEqualTo(1.0);
            assertThat(flaky.stddev()).isCloseTo(Math.sqrt(1.0 / 3), within(1e-12));
            assertThat(report.sampleSpreads().get("hard").stddev()).isZero();
        }
    }
}
