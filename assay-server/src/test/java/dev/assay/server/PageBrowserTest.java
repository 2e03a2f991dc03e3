package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page in Debian's headless Chromium (nothing downloaded): one browser session for the class. Screenshots of the
 * main views go to {@code target/screenshots}. Skipped when Chromium is not installed, unless
 * {@code ASSAY_REQUIRE_BROWSER=1}.
 */
class PageBrowserTest {
    private static final File CHROMIUM = new File("/usr/bin/chromium");
    private static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @TempDir
    static Path home;

    static ServerFixture server;
    static WebDriver browser;
    /**
     * Selenium warns through java.util.logging that Debian's Chromium is newer than the DevTools versions it knows; the
     * page needs none of them. Held here, as java.util.logging keeps only weak references to its loggers.
     */
    private static final java.util.logging.Logger DEVTOOLS = java.util.logging.Logger.getLogger("org.openqa.selenium");

    WebDriverWait wait;

    @BeforeAll
    static void startBrowser() throws Exception {
        boolean present = CHROMIUM.canExecute() && CHROMEDRIVER.canExecute();
        if (!present && "1".equals(System.getenv("ASSAY_REQUIRE_BROWSER"))) {
            throw new IllegalStateException("ASSAY_REQUIRE_BROWSER=1 but /usr/bin/chromium or /usr/bin/chromedriver "
                    + "is missing: apt-get install -y chromium chromium-driver");
        }
        DEVTOOLS.setLevel(java.util.logging.Level.SEVERE);
        Assumptions.assumeTrue(
                present,
                "browser tests skipped: /usr/bin/chromium and /usr/bin/chromedriver are not "
                        + "installed (apt-get install -y chromium chromium-driver)");
        server = new ServerFixture(home);
        var options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--window-size=1280,800",
                "--user-data-dir=" + Files.createDirectories(home.resolve("chromium-profile")));
        var service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER)
                .build();
        browser = new ChromeDriver(service, options);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void openPage() {
        browser.manage().window().setSize(new Dimension(1280, 800));
        // A new document each time: the page keeps its view across hash-only navigations.
        browser.get("about:blank");
        browser.get(server.url("/#token=" + ServerFixture.TOKEN));
        wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.until(driver ->
                driver.findElements(By.cssSelector("#case-set option")).size() >= 3);
    }

    @Test
    void a_run_started_from_the_page_reaches_the_end_with_charts_and_a_history_entry() throws Exception {
        fill("model_name", "openai:scripted");
        fill("base_url", server.model.baseUrl());
        fill("api_key_env", ServerFixture.KEY_VARIABLE);
        new Select(browser.findElement(By.id("case-set"))).selectByValue("slow.jsonl");
        // Every status the badge shows, as it changes: a warm server can run the eight cases between two polls.
        script("window.__statuses = []; new MutationObserver(() => window.__statuses.push("
                + "document.getElementById('run-status').textContent)).observe(document.getElementById('run-status'), "
                + "{childList: true, characterData: true, subtree: true})");
        browser.findElement(By.id("start")).click();
        wait.until(ExpectedConditions.textToBe(By.id("progress-text"), "8 / 8"));
        wait.until(ExpectedConditions.textToBe(By.id("run-status"), "finished"));
        assertThat(script("return window.__statuses"))
                .asInstanceOf(InstanceOfAssertFactories.LIST)
                .contains("running");
        assertThat(browser.findElement(By.id("progress")).getAttribute("aria-valuenow"))
                .isEqualTo("8");
        assertThat(script("return Chart.getChart('score-bar').data.labels"))
                .asString()
                .contains("common", "logic");
        assertThat(script("return Chart.getChart('score-radar') !== undefined")).isEqualTo(true);
        assertThat(browser.findElements(By.cssSelector("#live-log li"))).hasSizeGreaterThanOrEqualTo(8);
        screenshot("run.png");

        String runId = browser.findElement(By.id("run-id")).getText();
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        wait.until(driver -> !driver.findElements(By.cssSelector("#history-table tr[data-run-id='" + runId + "']"))
                .isEmpty());
        screenshot("history.png");
    }

    @Test
    void a_dialog_run_started_from_the_page_follows_its_turns_and_ends_with_the_dialog_metrics() throws Exception {
        Files.writeString(
                server.home.resolve("suites/page-dialogs.jsonl"),
                String.join("\n", DialogRuns.oneTurn("page-d1"), DialogRuns.oneTurn("page-d2")));
        openPage();
        new Select(browser.findElement(By.id("run-kind"))).selectByValue("dialog");
        assertThat(browser.findElement(By.id("case-set")).isDisplayed()).isFalse();
        new Select(browser.findElement(By.id("dataset"))).selectByValue("page-dialogs.jsonl");
        fill("model_name", "mock");
        // Every text the current-case line shows: it is reset once the run has ended.
        script("window.__current = []; new MutationObserver(() => window.__current.push("
                + "document.getElementById('current-case').textContent)).observe("
                + "document.getElementById('current-case'), {childList: true, characterData: true, subtree: true})");

        browser.findElement(By.id("start")).click();

        wait.until(ExpectedConditions.textToBe(By.id("run-status"), "finished"));
        assertThat(browser.findElement(By.id("progress-text")).getText()).isEqualTo("2 / 2");
        assertThat(script("return window.__current"))
                .asInstanceOf(InstanceOfAssertFactories.LIST)
                .anySatisfy(text -> assertThat(text).asString().contains("page-d2 · turn 1 / 1"));
        assertThat(browser.findElements(By.cssSelector("#live-log li"))).hasSize(2);
        assertThat(script("return Chart.getChart('score-bar').data.labels"))
                .asString()
                .contains("m1", "m5");
    }

    @Test
    void a_cancelled_run_is_resumed_from_its_detail_and_finishes_every_case() throws Exception {
        String runId = server.start("slow.jsonl", "\"concurrency\": 1");
        Instant deadline = Instant.now().plusSeconds(20);
        while (server.get("/api/runs/" + runId).json().at("/run/counts/passed").asInt() < 1
                && Instant.now().isBefore(deadline)) {
            Thread.sleep(50);
        }
        server.post("/api/runs/" + runId + "/cancel", null);
        assertThat(server.awaitEnd(runId).path("status").asText()).isEqualTo("cancelled");
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        openFromHistory(runId);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("detail-resume")));

        browser.findElement(By.id("detail-resume")).click();

        wait.until(ExpectedConditions.textToBe(By.id("run-status"), "finished"));
        assertThat(browser.findElement(By.id("progress-text")).getText()).isEqualTo("8 / 8");
        assertThat(server.get("/api/runs/" + runId + "/items?limit=50")
                        .json()
                        .path("items_total")
                        .asInt())
                .isEqualTo(8);
    }

    /**
     * M3 on the page: a run whose suite file changed since it started is refused ({@code run.suite_changed}, naming the
     * changed cases); accepted, it goes on with the cases it started with. The changed case comes after six slow ones,
     * so the cancel stops the run before it: run again by the new file it would fail ({@code exact Berlin}).
     */
    @Test
    void a_run_whose_suite_changed_is_refused_on_resume_and_ends_with_its_stored_cases_once_accepted()
            throws Exception {
        Path file = server.home.resolve("suites/page-changing.jsonl");
        var lines = new StringBuilder();
        for (int i = 1; i <= 6; i++) {
            lines.append(line("same_" + i, "contains", "Paris"));
        }
        Files.writeString(file, lines + line("edited", "contains", "Paris") + line("dropped", "contains", "Paris"));
        String runId = server.start("page-changing.jsonl", "\"concurrency\": 1");
        Instant deadline = Instant.now().plusSeconds(20);
        while (server.get("/api/runs/" + runId).json().at("/run/counts/passed").asInt() < 1
                && Instant.now().isBefore(deadline)) {
            Thread.sleep(50);
        }
        server.post("/api/runs/" + runId + "/cancel", null);
        assertThat(server.awaitEnd(runId).path("status").asText()).isEqualTo("cancelled");
        Files.writeString(file, lines + line("edited", "exact", "Berlin") + line("added", "contains", "Paris"));
        openFromHistory(runId);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("detail-resume")));

        browser.findElement(By.id("detail-resume")).click();

        Alert refusal = wait.until(ExpectedConditions.alertIsPresent());
        assertThat(refusal.getText()).contains("(run.suite_changed)", "edited", "added", "dropped");
        refusal.accept();
        wait.until(ExpectedConditions.textToBe(By.id("run-status"), "finished"));
        assertThat(browser.findElement(By.id("progress-text")).getText()).isEqualTo("8 / 8");
        JsonNode items = server.get("/api/runs/" + runId + "/items?limit=50").json();
        assertThat(items.path("items").findValuesAsText("case_id"))
                .containsExactly("same_1", "same_2", "same_3", "same_4", "same_5", "same_6", "edited", "dropped");
        assertThat(items.path("items").findValuesAsText("status")).containsOnly("passed");
    }

    /** A slow case (the scripted model answers {@code Paris} after 300 ms) judged by {@code checker}. */
    private static String line(String id, String checker, String expected) {
        return "{\"id\": \"%s\", \"dimension\": \"common\", \"prompt\": \"Capital of France? %s slow\", \"checker\": \"%s\", \"expected\": \"%s\"}\n"
                .formatted(id, id, checker, expected);
    }

    @Test
    void a_cancelled_dialog_run_is_resumed_from_its_detail_and_finishes_every_dialog() throws Exception {
        Files.writeString(
                server.home.resolve("suites/page-resume.jsonl"),
                String.join("\n", DialogRuns.oneTurn("pr-first"), DialogRuns.oneTurn("pr-held")));
        var held = new java.util.concurrent.atomic.AtomicBoolean(true);
        var heldAsked = new java.util.concurrent.CountDownLatch(1);
        try (var agent = dev.assay.testing.ScriptedSseAgent.start(body -> {
            if (body.path("session_id").asText().endsWith("pr-held") && held.get()) {
                heldAsked.countDown();
                return dev.assay.testing.ScriptedSseAgent.events(
                        dev.assay.testing.ScriptedSseAgent.pause(60_000),
                        dev.assay.testing.ScriptedSseAgent.event("final", "{\"answer\": \"late\"}"));
            }
            return dev.assay.testing.ScriptedSseAgent.events(
                    dev.assay.testing.ScriptedSseAgent.event("final", "{\"answer\": \"注意波动风险\"}"));
        })) {
            String runId = server.post("/api/runs", """
                            {"kind": "dialog", "dataset": "page-resume.jsonl", "agent": {"url": "%s"}}
                            """.formatted(agent.url()))
                    .json()
                    .path("run_id")
                    .asText();
            assertThat(heldAsked.await(20, java.util.concurrent.TimeUnit.SECONDS))
                    .isTrue();
            server.post("/api/runs/" + runId + "/cancel", null);
            assertThat(server.awaitEnd(runId).path("status").asText()).isEqualTo("cancelled");
            held.set(false);
            openFromHistory(runId);
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("detail-resume")));

            browser.findElement(By.id("detail-resume")).click();

            wait.until(ExpectedConditions.textToBe(By.id("run-status"), "finished"));
            assertThat(browser.findElement(By.id("progress-text")).getText()).isEqualTo("2 / 2");
        }
    }

    @Test
    void a_run_whose_every_item_is_an_error_shows_failed_and_the_items_error_type_in_history_and_detail()
            throws Exception {
        // Nothing listens on port 9 (discard): every call is refused, once.
        var started = server.post("/api/runs", """
                {"model_name": "openai:scripted", "base_url": "http://127.0.0.1:9/v1", "api_key_env": "%s",
                 "case_set": "xss.jsonl", "retries": 0}
                """.formatted(ServerFixture.KEY_VARIABLE));
        assertThat(started.status()).as(started.text()).isEqualTo(201);
        String runId = started.json().path("run_id").asText();
        JsonNode run = server.awaitEnd(runId);
        assertThat(run.path("status").asText()).isEqualTo("failed");
        assertThat(run.at("/error/type").asText()).isEqualTo("run.all_items_errored");
        String itemsType = run.at("/error/details/error_type").asText();
        assertThat(itemsType).startsWith("target.");

        openFromHistory(runId);

        wait.until(ExpectedConditions.textToBe(By.id("detail-status"), "failed"));
        assertThat(browser.findElement(By.id("detail-reason")).getText()).contains(itemsType, "run.all_items_errored");
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        By row = By.cssSelector("#history-table tr[data-run-id='" + runId + "'] .error-type");
        wait.until(ExpectedConditions.textToBe(row, itemsType));
    }

    @Test
    void the_detail_shows_a_model_answer_with_a_script_tag_as_text() throws Exception {
        String runId = server.start("xss.jsonl", "");
        server.awaitEnd(runId);
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        By row = By.cssSelector("#history-table tr[data-run-id='" + runId + "']");
        wait.until(ExpectedConditions.elementToBeClickable(row)).click();
        wait.until(driver ->
                driver.findElements(By.cssSelector("#detail-items tbody tr")).size() == 2);
        browser.findElements(By.cssSelector("#detail-items tbody tr"))
                .getFirst()
                .click();
        WebElement answer = browser.findElement(By.id("item-final-answer"));
        wait.until(ExpectedConditions.textToBePresentInElement(answer, "<script>"));
        assertThat(answer.getText()).contains("<script>window.__assayXss = 1</script><b>Paris</b>");
        assertThat(browser.findElements(By.cssSelector("#item-detail pre *, #item-detail script")))
                .isEmpty();
        assertThat(script("return window.__assayXss === undefined")).isEqualTo(true);
        assertThat(browser.findElements(By.cssSelector("#item-transcript .event")))
                .isNotEmpty();
        // Two dimensions: a bar chart, no radar; and each dimension's interval beside it.
        assertThat(script("return Chart.getChart('detail-bar').data.labels.length"))
                .isEqualTo(2L);
        assertThat(script("return Chart.getChart('detail-radar') === undefined"))
                .isEqualTo(true);
        assertThat(browser.findElement(By.id("detail-radar")).isDisplayed()).isFalse();
        assertThat(browser.findElement(By.id("detail-stats")).getText()).contains("95% interval", "common", "logic");
        fullPageScreenshot("detail.png");
    }

    /**
     * The acceptance of the review: a run started through the API is graded by the server's judge (it passes cases 1 to
     * 4 and fails 5 and 6); a person labels the six checks in the page, by keys only: pass, pass, fail, pass, pass,
     * fail. Judge / person: 1, 2, 4 pass/pass, 3 pass/fail, 5 fail/pass, 6 fail/fail: po = 4/6; both pass 4 of 6, so pe
     * = (4/6)² + (2/6)² = 20/36 and kappa = (24/36 - 20/36) / (16/36) = 0.25. The same kappa is what {@code assay
     * judges calibrate} prints ({@link dev.assay.report.Calibration}).
     */
    @Test
    void labels_given_in_the_review_view_sit_beside_the_verdicts_and_calibrate_the_judge() throws Exception {
        String runId = server.start("judged.jsonl", "\"concurrency\": 1");
        JsonNode run = server.awaitEnd(runId);
        assertThat(run.path("counts").path("passed").asInt()).isEqualTo(4);
        assertThat(run.path("counts").path("failed").asInt()).isEqualTo(2);
        openFromHistory(runId);
        browser.findElement(By.id("review-by")).sendKeys("ann");
        browser.findElement(By.id("review-start")).click();
        WebElement position = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("review-position")));
        String[] keys = {"p", "p", "f", "p", "p", "f"};
        for (int i = 0; i < keys.length; i++) {
            int at = i + 1;
            wait.until(driver -> position.getText().startsWith(at + " of 6"));
            if (i == 2) {
                // A note, typed after n and kept with Enter; markup in it stays text.
                new Actions(browser).sendKeys("n").perform();
                browser.findElement(By.id("review-note")).sendKeys(ServerFixture.MARKUP, Keys.ENTER);
            }
            new Actions(browser).sendKeys(keys[i]).perform();
        }
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("review-status"), "Review done"));
        WebElement kappa = wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#calibration tr[data-model='openai:" + ServerFixture.JUDGE_MODEL + "'] .kappa")));
        assertThat(kappa.getText()).startsWith("0.250");

        var labels = server.store.listLabels(runId);
        assertThat(labels).hasSize(6).allSatisfy(label -> assertThat(label.by()).isEqualTo("ann"));
        var calibration = dev.assay.report.Calibration.of(server.store, List.of(runId));
        assertThat(calibration
                        .byJudgeModel()
                        .get("openai:" + ServerFixture.JUDGE_MODEL)
                        .kappa())
                .isCloseTo(0.25, org.assertj.core.data.Offset.offset(1e-12));

        // The label shows beside the machine's verdict in the item pane, its note as text.
        By third = By.cssSelector("#detail-items tbody tr[data-case-id='judged_3']");
        wait.until(ExpectedConditions.elementToBeClickable(third)).click();
        WebElement shown =
                wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#item-checks .label")));
        assertThat(shown.getText()).isEqualTo("Labelled by ann: fail (" + ServerFixture.MARKUP + ")");
        assertThat(browser.findElement(By.cssSelector("#item-checks .check")).getText())
                .contains("passed");
        assertThat(script("return window.__assayPageXss === undefined")).isEqualTo(true);
        fullPageScreenshot("review.png");
    }

    @Test
    void a_run_with_several_answers_per_case_shows_pass_at_k_pass_hat_k_and_each_dimension_interval() throws Exception {
        String runId = server.start("slow.jsonl", "\"samples\": 2, \"concurrency\": 8");
        server.awaitEnd(runId);
        openFromHistory(runId);
        WebElement passAtK = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("detail-pass-at-k")));
        // One case passes both times, the other never: pass^k (all k pass) equals pass@k (one of k passes) here.
        assertThat(passAtK.getText())
                .isEqualTo("2 answers per case: pass@1 50.0 · pass@2 50.0 — pass^1 50.0 · pass^2 50.0");
        // Four samples per dimension (two cases, two answers each): every dimension has an interval.
        List<WebElement> rows = browser.findElements(By.cssSelector("#detail-stats tbody tr"));
        assertThat(rows).hasSize(4);
        assertThat(rows)
                .allSatisfy(row -> assertThat(row.getText()).matches(".* \\d+\\.\\d – \\d+\\.\\d \\d+\\.\\d 4"));
        assertThat(browser.findElement(By.id("detail-intervals-over")).getText())
                .isEqualTo("95 % intervals over items taken as independent");
        assertThat(script("return Chart.getChart('detail-bar').options.plugins.intervalWhiskers.intervals.length"))
                .isEqualTo(4L);
        assertThat(script("return Chart.getChart('detail-radar') !== undefined"))
                .isEqualTo(true);
        script("window.scrollTo(0, 0)");
        screenshot("intervals.png");
    }

    @Test
    void a_run_clustered_by_a_case_field_shows_its_intervals_so_and_the_cases_whose_samples_disagree()
            throws Exception {
        String runId = server.start("slow.jsonl", "\"samples\": 2, \"cluster_by\": \"dimension\", \"concurrency\": 8");
        server.awaitEnd(runId);
        openFromHistory(runId);
        WebElement over = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("detail-intervals-over")));
        assertThat(over.getText()).isEqualTo("95 % intervals clustered by dimension");
        // Each dimension is one cluster: a standard error of 0, where the plain one is not.
        List<WebElement> rows = browser.findElements(By.cssSelector("#detail-stats tbody tr"));
        assertThat(rows).hasSize(4).allSatisfy(row -> assertThat(row.getText()).endsWith(" 0.0 4"));
        // The mock answers alike every time: no case's samples disagree, and the table stays hidden.
        assertThat(browser.findElement(By.id("detail-case-samples")).isDisplayed())
                .isFalse();
        // Fed a detail whose samples disagree, the page lists those cases, the most spread first, as text.
        script("renderStats({intervals: {cluster_by: null, reducer: 'max', dimensions: {}}, case_samples: {"
                + "'<b>a</b>': {samples: 3, passed: 1, mean: 0.333, min: 0, max: 1, stddev: 0.577},"
                + "'b': {samples: 3, passed: 3, mean: 1, min: 1, max: 1, stddev: 0},"
                + "'c': {samples: 3, passed: 2, mean: 0.8, min: 0.4, max: 1, stddev: 0.346}}})");
        List<WebElement> cases = browser.findElements(By.cssSelector("#detail-case-samples tbody tr"));
        assertThat(cases)
                .extracting(WebElement::getText)
                .containsExactly("<b>a</b> 1/3 33.3 0.00 – 1.00 0.58", "c 2/3 80.0 0.40 – 1.00 0.35");
        assertThat(browser.findElement(By.cssSelector("#detail-case-samples caption"))
                        .getText())
                .isEqualTo("2 cases whose answers disagree");
        // The table of intervals is hidden without dimensions; its caption is written all the same.
        assertThat(browser.findElement(By.id("detail-intervals-over")).getDomProperty("textContent"))
                .isEqualTo("95 % intervals each case once, samples reduced by max");
    }

    @Test
    void an_item_reads_as_a_conversation_with_tool_calls_and_reasoning_folded_and_long_output_cut() throws Exception {
        pageRun();
        openItemOf("page_tool");
        WebElement conversation = browser.findElement(By.id("item-conversation"));
        assertThat(conversation.findElement(By.cssSelector(".message.user")).getText())
                .contains("Read the notes");
        List<WebElement> turns = conversation.findElements(By.cssSelector(".message.assistant"));
        assertThat(turns).hasSize(2);
        assertThat(turns.getFirst().getText()).contains("turn 1", "10 in · 5 out tokens");
        WebElement call = turns.getFirst().findElement(By.cssSelector("details.tool-call"));
        assertThat(call.getAttribute("open")).isNull();
        assertThat(call.findElement(By.tagName("summary")).getText()).contains("read_file", "notes.txt", "ok");
        call.findElement(By.tagName("summary")).click();
        assertThat(call.findElement(By.cssSelector(".tool-args")).getText())
                .contains("\"path\": \"notes.txt\"", ServerFixture.MARKUP.replace("\"", "\\\""));
        assertThat(call.findElement(By.cssSelector(".tool-result")).getText())
                .contains(ServerFixture.MARKUP + " in the notes");
        WebElement reasoning = turns.get(1).findElement(By.cssSelector("details.reasoning"));
        assertThat(reasoning.getAttribute("open")).isNull();
        assertThat(reasoning.getText()).contains("Reasoning").doesNotContain("The notes say where");
        assertThat(turns.get(1).getText()).contains("Paris " + ServerFixture.MARKUP);
        reasoning.findElement(By.tagName("summary")).click();
        assertThat(reasoning.getText()).contains("The notes say where.");
        assertNoMarkupRan();
        fullPageScreenshot("conversation.png");

        openItemOf("page_long");
        WebElement answer =
                wait.until(driver -> driver.findElement(By.cssSelector("#item-conversation .message.assistant .text")));
        assertThat(answer.getText()).hasSizeLessThan(1300).doesNotContain("Paris");
        answer.findElement(By.cssSelector("button.show-all")).click();
        assertThat(answer.getText()).hasSizeGreaterThan(4800).endsWith("Paris");
    }

    @Test
    void the_checks_are_told_in_words_with_a_diff_the_matched_span_and_the_failing_json_path() throws Exception {
        pageRun();
        openItemOf("page_tool");
        WebElement exact = browser.findElement(By.cssSelector("#item-checks .check[data-checker=exact]"));
        assertThat(exact.getText()).contains("exact.mismatch", "Expected", "Paris, France", "Actual");
        assertThat(exact.findElements(By.cssSelector(".diff del")).stream().map(WebElement::getText))
                .anySatisfy(removed -> assertThat(removed).contains("France"));
        assertThat(exact.findElements(By.cssSelector(".diff ins")).stream().map(WebElement::getText))
                .anySatisfy(added -> assertThat(added).contains("<img"));
        assertNoMarkupRan();

        openItemOf("page_regex");
        WebElement regex = browser.findElement(By.cssSelector("#item-checks .check[data-checker=regex]"));
        assertThat(regex.findElement(By.tagName("mark")).getText()).isEqualTo("123");
        assertThat(regex.getText()).contains("the code is 123 today");

        openItemOf("page_long");
        assertThat(browser.findElement(By.cssSelector("#item-checks .check[data-checker=contains] mark"))
                        .getText())
                .isEqualTo("Paris");

        openItemOf("page_json");
        WebElement json = browser.findElement(By.cssSelector("#item-checks .check[data-checker=json_contains]"));
        assertThat(json.findElement(By.cssSelector(".mismatch")).getText())
                .isEqualTo("First difference at /status (value): expected \"ok\", got \"failed\"");
        script("document.getElementById('item-checks').scrollIntoView()");
        screenshot("checks.png");
    }

    @Test
    void a_code_question_shows_its_test_table_with_input_expected_and_actual() throws Exception {
        String runId = server.start("code.jsonl", "");
        server.awaitEnd(runId);
        JsonNode check = server.get("/api/runs/" + runId + "/items/0")
                .json()
                .path("checker_detail")
                .path("checks")
                .get(0);
        Assumptions.assumeFalse(
                "sandbox.unavailable".equals(check.path("error_type").asText()),
                "code test table skipped: no sandbox (" + check.path("message").asText() + ")");
        openFromHistory(runId);
        wait.until(driver -> driver.findElements(By.cssSelector("#detail-items tbody tr[data-case-id]"))
                        .size()
                == 1);
        openItemOf("code_add");
        WebElement code = browser.findElement(By.cssSelector("#item-checks .check[data-checker=code]"));
        assertThat(code.getText()).contains("Tests passed", "1 of 2", "python");
        List<WebElement> rows = code.findElements(By.cssSelector(".code-tests tbody tr"));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).findElements(By.tagName("td")).stream()
                        .map(WebElement::getText)
                        .toList())
                .containsExactly("test 1", "passed", "1, 2", "3", "3", "");
        assertThat(rows.get(1).findElements(By.tagName("td")).stream()
                        .map(WebElement::getText)
                        .toList())
                .startsWith("test 2", "wrong_answer", "2, 2", "4", "0");
        script("document.getElementById('item-checks').scrollIntoView()");
        screenshot("code.png");
    }

    @Test
    void items_are_filtered_and_j_and_k_walk_the_failed_ones_with_a_visible_focus() throws Exception {
        pageRun();
        filter("status", "failed,partial,error");
        wait.until(driver -> caseIds().equals(List.of("page_tool", "page_json")));
        filter("status", "");
        filter("language", "zh-CN");
        wait.until(driver -> caseIds().equals(List.of("page_regex")));
        filter("language", "");
        filter("tag", "user");
        wait.until(driver -> caseIds().equals(List.of("page_long")));
        filter("tag", "");
        browser.findElement(By.cssSelector("#item-filters input[name=q]")).sendKeys("json");
        wait.until(driver -> caseIds().equals(List.of("page_json")));
        browser.findElement(By.cssSelector("#item-filters input[name=q]"))
                .sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
        wait.until(driver -> caseIds().size() == 4);

        script("document.activeElement.blur()");
        press("j");
        awaitFocused("page_tool");
        press("j");
        awaitFocused("page_json");
        assertThat(script("return getComputedStyle(document.activeElement).outlineStyle"))
                .isEqualTo("solid");
        press("k");
        awaitFocused("page_tool");
        press("n");
        awaitFocused("page_json");
        press("p");
        awaitFocused("page_tool");
        screenshot("filters.png");
    }

    @Test
    void the_conversation_and_checks_fit_a_phone_width() throws Exception {
        pageRun();
        browser.manage().window().setSize(new Dimension(390, 844));
        openItemOf("page_tool");
        browser.findElement(By.cssSelector("#item-conversation details.tool-call summary"))
                .click();
        Number overflow = (Number) script("return document.documentElement.scrollWidth - window.innerWidth");
        assertThat(overflow.intValue()).isLessThanOrEqualTo(0);
        script("document.getElementById('item-detail').scrollIntoView()");
        screenshot("phone-item.png");
    }

    @Test
    void two_runs_ticked_in_the_history_are_compared_side_by_side() throws Exception {
        String scripted = server.start("basic.jsonl", "");
        server.awaitEnd(scripted);
        String mocked = server.post("/api/runs", "{\"model_name\": \"mock\", \"case_set\": \"basic.jsonl\"}")
                .json()
                .path("run_id")
                .asText();
        server.awaitEnd(mocked);
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        for (String runId : new String[] {scripted, mocked}) {
            By pick = By.cssSelector("#history-table tr[data-run-id='" + runId + "'] .pick");
            wait.until(ExpectedConditions.elementToBeClickable(pick)).click();
        }
        browser.findElement(By.id("compare-selected")).click();
        wait.until(driver ->
                driver.findElements(By.cssSelector("#compare-changed tbody tr")).size() == 2);
        assertThat(browser.findElement(By.id("compare-dimensions")).getText()).contains("TOTAL", "common");
        assertThat(browser.findElement(By.id("compare-summary")).getText()).contains("McNemar p =");
        browser.findElements(By.cssSelector("#compare-changed tbody tr"))
                .getFirst()
                .click();
        By sides = By.cssSelector("#compare-sides .side");
        wait.until(driver -> driver.findElements(sides).size() == 2
                && driver.findElements(By.cssSelector("#compare-sides .side .message.assistant"))
                                .size()
                        == 2);
        String caseId = browser.findElements(By.cssSelector("#compare-changed tbody tr"))
                .getFirst()
                .getAttribute("data-case-id");
        assertThat(browser.findElement(By.id("compare-case-id")).getText()).isEqualTo(caseId);
        List<WebElement> both = browser.findElements(sides);
        String a = browser.findElement(By.cssSelector("#compare-form input[name=a]"))
                .getAttribute("value");
        String b = browser.findElement(By.cssSelector("#compare-form input[name=b]"))
                .getAttribute("value");
        assertThat(List.of(a, b)).containsExactlyInAnyOrder(scripted, mocked);
        assertThat(both.get(0).getText()).startsWith("A · " + a.substring(0, 8)).contains("Conversation");
        assertThat(both.get(1).getText()).startsWith("B · " + b.substring(0, 8)).contains("Conversation");
        assertThat(both.get(0).findElement(By.cssSelector(".badge")).getText())
                .isNotEqualTo(both.get(1).findElement(By.cssSelector(".badge")).getText());
        assertThat(both.get(0).findElements(By.cssSelector(".check"))).isNotEmpty();
        fullPageScreenshot("compare.png");
    }

    @Test
    void a_run_opens_from_its_address_the_address_follows_the_runs_opened_and_back_returns() throws Exception {
        String first = server.start("basic.jsonl", "");
        server.awaitEnd(first);
        String second = server.start("basic.jsonl", "");
        server.awaitEnd(second);

        browser.get("about:blank");
        browser.get(server.url("/#/runs/" + first));
        awaitDetailOf(first);
        openFromHistory(second);
        awaitDetailOf(second);
        assertThat(browser.getCurrentUrl()).endsWith("#/runs/" + second);

        browser.navigate().back();
        wait.until(driver ->
                driver.findElement(By.id("view-history")).getAttribute("class").contains("active"));
        browser.navigate().back();
        awaitDetailOf(first);
        assertThat(browser.getCurrentUrl()).endsWith("#/runs/" + first);
    }

    @Test
    void two_runs_ticked_newer_first_are_compared_with_the_older_as_baseline_and_can_be_swapped() throws Exception {
        String older = server.start("basic.jsonl", "");
        server.awaitEnd(older);
        String newer = server.post("/api/runs", "{\"model_name\": \"mock\", \"case_set\": \"basic.jsonl\"}")
                .json()
                .path("run_id")
                .asText();
        server.awaitEnd(newer);
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        for (String runId : new String[] {newer, older}) {
            By pick = By.cssSelector("#history-table tr[data-run-id='" + runId + "'] .pick");
            wait.until(ExpectedConditions.elementToBeClickable(pick)).click();
        }

        browser.findElement(By.id("compare-selected")).click();

        wait.until(driver ->
                driver.findElement(By.id("compare-baseline")).getText().startsWith("Baseline A: "));
        assertThat(compareInput("a")).isEqualTo(older);
        assertThat(compareInput("b")).isEqualTo(newer);
        assertThat(browser.findElement(By.id("compare-baseline")).getText())
                .startsWith("Baseline A: " + older.substring(0, 8));
        assertThat(browser.getCurrentUrl()).endsWith("#/compare/" + older + "/" + newer);

        browser.findElement(By.id("compare-swap")).click();

        wait.until(driver -> driver.findElement(By.id("compare-baseline"))
                .getText()
                .startsWith("Baseline A: " + newer.substring(0, 8)));
        assertThat(compareInput("a")).isEqualTo(newer);
        assertThat(compareInput("b")).isEqualTo(older);
    }

    @Test
    void the_detail_of_a_run_with_tool_switches_shows_its_tool_coverage() throws Exception {
        String runId = server.start("tools.jsonl", "\"tool_names\": [\"read_file\"]");
        server.awaitEnd(runId);
        openFromHistory(runId);
        By skippedRows = By.cssSelector("#coverage-skipped tbody tr");
        wait.until(driver -> driver.findElements(skippedRows).size() == 1);
        WebElement skipped = browser.findElement(skippedRows);
        assertThat(skipped.getText()).contains("needs_write", "case.missing_tools", "write_file");
        assertThat(browser.findElement(By.cssSelector("#coverage-tools tr[data-tool=read_file]"))
                        .getText())
                .contains("exercised");
        assertThat(browser.findElement(By.cssSelector("#coverage-tools tr[data-tool=final_answer]"))
                        .getText())
                .contains("never called");
        assertThat(browser.findElement(By.id("coverage-tags")).getText()).contains("builtin");
        assertThat(browser.findElement(By.id("dialog-view")).isDisplayed()).isFalse();
        browser.findElements(By.cssSelector("#detail-items tbody tr"))
                .getFirst()
                .click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("item-error"), "case.missing_tools"));
        script("document.getElementById('coverage').scrollIntoView()");
        screenshot("coverage.png");
    }

    @Test
    void a_dialog_run_shows_its_metrics_by_dialog_values_and_turns_as_text() throws Exception {
        String runId = DialogRuns.store(server.store, home.resolve("dialog-run"), "5f0c1d2e3a4b5c6d7e8f90a1b2c3d4e5");
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        new Select(browser.findElement(By.cssSelector("#history-filters select[name=kind]"))).selectByValue("dialog");
        browser.findElement(By.cssSelector("#history-filters button[type=submit]"))
                .click();
        // Only dialog runs are listed once the filter applies (another test may have started one from the page).
        wait.until(
                driver -> Boolean.TRUE.equals(script("return [...document.querySelectorAll('#history-table tbody tr')]"
                        + ".every(row => row.textContent.includes('dialog')) && document.querySelector("
                        + "\"#history-table tr[data-run-id='" + runId + "']\") !== null")));
        openFromHistory(runId);
        By metricRows = By.cssSelector("#dialog-metrics tbody tr[data-metric=m1_context_continuity]");
        wait.until(driver -> !driver.findElements(metricRows).isEmpty());
        assertThat(browser.findElement(By.id("dialog-metrics")).getText())
                .contains("M1 context continuity", "key_coverage", "M5 explainability", "rubric_hit_rate");
        assertThat(browser.findElements(By.cssSelector("#dialog-items tbody tr")))
                .hasSize(3);
        assertThat(browser.findElement(By.id("capability-view")).isDisplayed()).isFalse();
        browser.findElement(By.cssSelector("#dialog-items tr[data-dialog-id=d1]"))
                .click();
        WebElement prediction =
                wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dialog-turns .prediction")));
        assertThat(prediction.getText()).isEqualTo(DialogRuns.ANSWER);
        assertThat(browser.findElements(By.cssSelector("#dialog-view img"))).isEmpty();
        assertThat(script("return window.__assayDialogXss === undefined")).isEqualTo(true);
        assertThat(browser.findElement(By.cssSelector("#dialog-turns .recall")).getText())
                .contains(DialogRuns.RECALLED);
        assertThat(browser.findElement(By.cssSelector("#dialog-turns .turn-error"))
                        .getText())
                .contains(DialogRuns.FAILURE);
        assertThat(browser.findElement(By.cssSelector("#dialog-turns .verdicts"))
                        .getText())
                .contains("M4 compliance");
        fullPageScreenshot("dialog.png");
    }

    @Test
    void the_page_fits_a_phone_width_without_sideways_scrolling() throws Exception {
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.navigate().refresh();
        wait.until(driver ->
                driver.findElements(By.cssSelector("#case-set option")).size() >= 3);
        Number overflow = (Number) script("return document.documentElement.scrollWidth - window.innerWidth");
        assertThat(overflow.intValue()).isLessThanOrEqualTo(0);
        screenshot("phone.png");
    }

    /** Runs {@code page.jsonl} against the scripted model and opens its detail. */
    private String pageRun() throws Exception {
        String runId = server.start("page.jsonl", "");
        server.awaitEnd(runId);
        openFromHistory(runId);
        wait.until(driver -> driver.findElements(By.cssSelector("#detail-items tbody tr[data-case-id]"))
                        .size()
                == 4);
        return runId;
    }

    private void openItemOf(String caseId) {
        browser.findElement(By.cssSelector("#detail-items tr[data-case-id=" + caseId + "]"))
                .click();
        wait.until(ExpectedConditions.textToBe(By.id("item-case-id"), caseId));
    }

    private void filter(String name, String value) {
        new Select(browser.findElement(By.cssSelector("#item-filters select[name=" + name + "]"))).selectByValue(value);
    }

    /** The case ids of the listed items, read in one script (the list is replaced as filters change). */
    private List<String> caseIds() {
        return ((List<?>) script("return [...document.querySelectorAll('#detail-items tbody tr[data-case-id]')]"
                        + ".map(row => row.dataset.caseId)"))
                .stream().map(String::valueOf).toList();
    }

    private void press(String key) {
        new Actions(browser).sendKeys(key).perform();
    }

    private void awaitFocused(String caseId) {
        wait.until(driver -> caseId.equals(script("return document.activeElement.dataset.caseId"))
                && caseId.equals(driver.findElement(By.id("item-case-id")).getText()));
        assertThat(browser.findElement(By.cssSelector("#detail-items tr.selected"))
                        .getAttribute("data-case-id"))
                .isEqualTo(caseId);
    }

    private void assertNoMarkupRan() {
        assertThat(browser.findElements(By.cssSelector("#view-detail img, #view-compare img")))
                .isEmpty();
        assertThat(script("return window.__assayPageXss === undefined")).isEqualTo(true);
    }

    private void openFromHistory(String runId) {
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        By row = By.cssSelector("#history-table tr[data-run-id='" + runId + "']");
        // The tab reloads the history: a row already listed may be replaced between finding and clicking it.
        wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class).until(driver -> {
            WebElement found = ExpectedConditions.elementToBeClickable(row).apply(driver);
            if (found == null) {
                return false;
            }
            found.click();
            return true;
        });
    }

    private void awaitDetailOf(String runId) {
        wait.until(ExpectedConditions.textToBe(By.id("detail-run-id"), runId.substring(0, 8)));
        assertThat(browser.findElement(By.id("view-detail")).getAttribute("class"))
                .contains("active");
    }

    private String compareInput(String name) {
        return browser.findElement(By.cssSelector("#compare-form input[name=" + name + "]"))
                .getAttribute("value");
    }

    private void fill(String name, String value) {
        WebElement input = browser.findElement(By.name(name));
        input.clear();
        input.sendKeys(value);
    }

    private Object script(String code) {
        return ((JavascriptExecutor) browser).executeScript(code);
    }

    /** The whole page, by growing the window to the page's height (at most 2 400 pixels). */
    private void fullPageScreenshot(String name) throws Exception {
        long height = ((Number) script("return document.documentElement.scrollHeight")).longValue();
        browser.manage().window().setSize(new Dimension(1280, (int) Math.min(2400, height)));
        script("window.scrollTo(0, 0); document.querySelectorAll('.table-wrap').forEach(w => { w.scrollLeft = 0; })");
        screenshot(name);
    }

    private static void screenshot(String name) throws Exception {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
}
