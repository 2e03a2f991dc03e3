package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page in Debian's headless Chromium (nothing downloaded): one browser session for the class. Screenshots of
 * the main views go to {@code target/screenshots}. Skipped when Chromium is not installed, unless
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
    WebDriverWait wait;

    @BeforeAll
    static void startBrowser() throws Exception {
        boolean present = CHROMIUM.canExecute() && CHROMEDRIVER.canExecute();
        if (!present && "1".equals(System.getenv("ASSAY_REQUIRE_BROWSER"))) {
            throw new IllegalStateException("ASSAY_REQUIRE_BROWSER=1 but /usr/bin/chromium or /usr/bin/chromedriver "
                    + "is missing: apt-get install -y chromium chromium-driver");
        }
        Assumptions.assumeTrue(present, "browser tests skipped: /usr/bin/chromium and /usr/bin/chromedriver are not "
                + "installed (apt-get install -y chromium chromium-driver)");
        server = new ServerFixture(home);
        var options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--no-first-run",
                "--window-size=1280,800", "--user-data-dir=" + Files.createDirectories(home.resolve("chromium-profile")));
        var service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER).build();
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
        wait.until(driver -> driver.findElements(By.cssSelector("#case-set option")).size() >= 3);
    }

    @Test
    void a_run_started_from_the_page_reaches_the_end_with_charts_and_a_history_entry() throws Exception {
        fill("model_name", "openai:scripted");
        fill("base_url", server.model.baseUrl());
        fill("api_key_env", ServerFixture.KEY_VARIABLE);
        new Select(browser.findElement(By.id("case-set"))).selectByValue("slow.jsonl");
        browser.findElement(By.id("start")).click();
        // On a loaded machine the page may first look after the last case: the live state is then already past.
        wait.until(ExpectedConditions.or(ExpectedConditions.textToBe(By.id("run-status"), "running"),
                ExpectedConditions.textToBe(By.id("run-status"), "finished")));
        wait.until(ExpectedConditions.textToBe(By.id("progress-text"), "8 / 8"));
        wait.until(ExpectedConditions.textToBe(By.id("run-status"), "finished"));
        assertThat(browser.findElement(By.id("progress")).getAttribute("aria-valuenow")).isEqualTo("8");
        assertThat(script("return Chart.getChart('score-bar').data.labels")).asString().contains("common", "logic");
        assertThat(script("return Chart.getChart('score-radar') !== undefined")).isEqualTo(true);
        assertThat(browser.findElements(By.cssSelector("#live-log li"))).hasSizeGreaterThanOrEqualTo(8);
        screenshot("run.png");

        String runId = browser.findElement(By.id("run-id")).getText();
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        wait.until(driver -> !driver.findElements(By.cssSelector("#history-table tr[data-run-id='" + runId + "']")).isEmpty());
        screenshot("history.png");
    }

    @Test
    void the_detail_shows_a_model_answer_with_a_script_tag_as_text() throws Exception {
        String runId = server.start("xss.jsonl", "");
        server.awaitEnd(runId);
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        By row = By.cssSelector("#history-table tr[data-run-id='" + runId + "']");
        wait.until(ExpectedConditions.elementToBeClickable(row)).click();
        wait.until(driver -> driver.findElements(By.cssSelector("#detail-items tbody tr")).size() == 2);
        browser.findElements(By.cssSelector("#detail-items tbody tr")).getFirst().click();
        WebElement answer = browser.findElement(By.id("item-final-answer"));
        wait.until(ExpectedConditions.textToBePresentInElement(answer, "<script>"));
        assertThat(answer.getText()).contains("<script>window.__assayXss = 1</script><b>Paris</b>");
        assertThat(browser.findElements(By.cssSelector("#item-detail pre *, #item-detail script"))).isEmpty();
        assertThat(script("return window.__assayXss === undefined")).isEqualTo(true);
        assertThat(browser.findElements(By.cssSelector("#item-transcript .event"))).isNotEmpty();
        fullPageScreenshot("detail.png");
    }

    @Test
    void two_runs_ticked_in_the_history_are_compared_side_by_side() throws Exception {
        String scripted = server.start("basic.jsonl", "");
        server.awaitEnd(scripted);
        String mocked = server.post("/api/runs", "{\"model_name\": \"mock\", \"case_set\": \"basic.jsonl\"}")
                .json().path("run_id").asText();
        server.awaitEnd(mocked);
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        for (String runId : new String[] {scripted, mocked}) {
            By pick = By.cssSelector("#history-table tr[data-run-id='" + runId + "'] .pick");
            wait.until(ExpectedConditions.elementToBeClickable(pick)).click();
        }
        browser.findElement(By.id("compare-selected")).click();
        wait.until(driver -> driver.findElements(By.cssSelector("#compare-changed tbody tr")).size() == 2);
        assertThat(browser.findElement(By.id("compare-dimensions")).getText()).contains("TOTAL", "common");
        assertThat(browser.findElement(By.id("compare-summary")).getText()).contains("McNemar p =");
        screenshot("compare.png");
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
        assertThat(browser.findElement(By.cssSelector("#coverage-tools tr[data-tool=read_file]")).getText())
                .contains("exercised");
        assertThat(browser.findElement(By.cssSelector("#coverage-tools tr[data-tool=final_answer]")).getText())
                .contains("never called");
        assertThat(browser.findElement(By.id("coverage-tags")).getText()).contains("builtin");
        assertThat(browser.findElement(By.id("dialog-view")).isDisplayed()).isFalse();
        browser.findElements(By.cssSelector("#detail-items tbody tr")).getFirst().click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("item-error"), "case.missing_tools"));
        script("document.getElementById('coverage').scrollIntoView()");
        screenshot("coverage.png");
    }

    @Test
    void a_dialog_run_shows_its_metrics_by_dialog_values_and_turns_as_text() throws Exception {
        String runId = DialogRuns.store(server.store, home.resolve("dialog-run"), "5f0c1d2e3a4b5c6d7e8f90a1b2c3d4e5");
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        new Select(browser.findElement(By.cssSelector("#history-filters select[name=kind]"))).selectByValue("dialog");
        browser.findElement(By.cssSelector("#history-filters button[type=submit]")).click();
        wait.until(driver -> driver.findElements(By.cssSelector("#history-table tbody tr")).size() == 1);
        openFromHistory(runId);
        By metricRows = By.cssSelector("#dialog-metrics tbody tr[data-metric=m1_context_continuity]");
        wait.until(driver -> !driver.findElements(metricRows).isEmpty());
        assertThat(browser.findElement(By.id("dialog-metrics")).getText())
                .contains("M1 context continuity", "key_coverage", "M5 explainability", "rubric_hit_rate");
        assertThat(browser.findElements(By.cssSelector("#dialog-items tbody tr"))).hasSize(3);
        assertThat(browser.findElement(By.id("capability-view")).isDisplayed()).isFalse();
        browser.findElement(By.cssSelector("#dialog-items tr[data-dialog-id=d1]")).click();
        WebElement prediction = wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#dialog-turns .prediction")));
        assertThat(prediction.getText()).isEqualTo(DialogRuns.ANSWER);
        assertThat(browser.findElements(By.cssSelector("#dialog-view img"))).isEmpty();
        assertThat(script("return window.__assayDialogXss === undefined")).isEqualTo(true);
        assertThat(browser.findElement(By.cssSelector("#dialog-turns .recall")).getText()).contains(DialogRuns.RECALLED);
        assertThat(browser.findElement(By.cssSelector("#dialog-turns .turn-error")).getText())
                .contains(DialogRuns.FAILURE);
        assertThat(browser.findElement(By.cssSelector("#dialog-turns .verdicts")).getText()).contains("M4 compliance");
        fullPageScreenshot("dialog.png");
    }

    @Test
    void the_page_fits_a_phone_width_without_sideways_scrolling() throws Exception {
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.navigate().refresh();
        wait.until(driver -> driver.findElements(By.cssSelector("#case-set option")).size() >= 3);
        Number overflow = (Number) script("return document.documentElement.scrollWidth - window.innerWidth");
        assertThat(overflow.intValue()).isLessThanOrEqualTo(0);
        screenshot("phone.png");
    }

    private void openFromHistory(String runId) {
        browser.findElement(By.cssSelector(".tab[data-view=history]")).click();
        By row = By.cssSelector("#history-table tr[data-run-id='" + runId + "']");
        wait.until(ExpectedConditions.elementToBeClickable(row)).click();
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
