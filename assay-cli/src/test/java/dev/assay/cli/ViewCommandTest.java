package dev.assay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.assay.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code assay view}: the server of {@code assay serve}, and the page's address where no browser can be opened. */
class ViewCommandTest {
    private static final Pattern OPEN =
            Pattern.compile("No browser to open here \\(no desktop or display\\); open (\\S+)");

    @TempDir
    Path home;

    @Test
    void without_a_display_it_serves_the_page_and_prints_the_address_of_the_run_named() throws Exception {
        var runs = new CliRunner(home);
        var finished = runs.run("run", "../examples/capability/logic.en-US.jsonl", "--model", "mock");
        assertThat(finished.code()).as(finished.err()).isZero();
        String runId = Json.parse(runs.run("runs", "list", "--format", "json").out())
                .path("runs")
                .get(0)
                .path("run_id")
                .asText();
        var out = new StringWriter();
        var err = new StringWriter();
        var code = new AtomicInteger(-1);
        // No DISPLAY, WAYLAND_DISPLAY or PATH in the environment: on Linux there is no browser to open.
        Thread view = new Thread(() -> code.set(AssayCli.run(
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                Map.of("ASSAY_HOME", home.toString()),
                "view",
                "--port",
                "0",
                runId.substring(0, 8))));
        view.start();
        try {
            Matcher printed = OPEN.matcher("");
            while (!printed.reset(out.toString()).find()) {
                assertThat(view.isAlive())
                        .as("view ended early: %s%s", out, err)
                        .isTrue();
                Thread.sleep(50);
            }
            String url = printed.group(1);

            assertThat(url).matches("http://127\\.0\\.0\\.1:\\d+/#/runs/" + Pattern.quote(runId));
            assertThat(out.toString()).contains("Assay is serving http://127.0.0.1:");
            HttpResponse<String> page = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(url.substring(0, url.indexOf('#'))))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<title>Assay</title>");
            HttpResponse<String> run = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(url.substring(0, url.indexOf('#')) + "api/runs/" + runId))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(run.statusCode()).isEqualTo(200);
        } finally {
            view.interrupt();
            view.join();
        }
    }
}
