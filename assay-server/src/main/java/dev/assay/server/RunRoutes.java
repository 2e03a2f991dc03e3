package dev.assay.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cost.Budget;
import dev.assay.report.Reporter;
import dev.assay.report.Reporters;
import dev.assay.report.RunComparison;
import dev.assay.report.RunReport;
import dev.assay.result.Run;
import dev.assay.store.RunIds;
import dev.assay.store.RunQuery;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;

/** {@code /api/runs}: start, cancel, list, detail with paged items, one item, delete, report export, comparison. */
final class RunRoutes {
    private static final Map<String, String> CONTENT_TYPES = Map.of(
            "json",
            "application/json",
            "markdown",
            "text/markdown; charset=utf-8",
            "junit",
            "application/xml",
            "html",
            "text/html; charset=utf-8",
            "promptfoo",
            "application/json");

    private final Runs runs;
    private final Reporters reporters;

    RunRoutes(Runs runs, Reporters reporters) {
        this.runs = runs;
        this.reporters = reporters;
    }

    void register(RoutesConfig routes) {
        routes.post("/api/runs", this::start);
        routes.get("/api/runs", this::list);
        routes.get("/api/runs/{run_id}", this::detail);
        routes.delete("/api/runs/{run_id}", this::delete);
        routes.post("/api/runs/{run_id}/cancel", this::cancel);
        routes.post("/api/runs/{run_id}/resume", this::resume);
        routes.get("/api/runs/{run_id}/items", this::items);
        routes.get("/api/runs/{run_id}/items/{position}", this::item);
        routes.get("/api/runs/{run_id}/report", this::report);
        routes.get("/api/compare", this::compare);
    }

    void start(Context ctx) throws InterruptedException {
        JsonNode body = Requests.body(ctx);
        ctx.status(201).json(DialogStartBody.isDialog(body) ? runs.startDialog(body) : runs.start(body));
    }

    /**
     * A body is optional: {@code {"retry_errors": true}} runs the items in error again too, {@code {"stored_cases":
     * true}} runs the cases the run was started with even when its suite files changed since.
     */
    void resume(Context ctx) throws InterruptedException {
        String body = ctx.body();
        JsonNode options = body.isBlank() ? Json.object() : Json.parse(body);
        ctx.status(202)
                .json(runs.resume(
                        ctx.pathParam("run_id"),
                        options.path("retry_errors").asBoolean(false),
                        options.path("stored_cases").asBoolean(false),
                        options instanceof ObjectNode fields
                                ? StartBody.limits(new StartBody.Reader(fields))
                                : Budget.NONE));
    }

    void list(Context ctx) {
        RunQuery query = Requests.runQuery(ctx);
        ObjectNode page = Json.object();
        page.set("runs", Json.tree(runs.store().listRuns(query)));
        page.put("total", runs.store().countRuns(query));
        page.put("offset", query.offset());
        page.put("limit", query.limit());
        ctx.json(page);
    }

    void detail(Context ctx) {
        String runId = ctx.pathParam("run_id");
        ObjectNode detail = Json.object();
        Run run = runs.run(runId);
        detail.set("run", Json.tree(run));
        detail.put("live", runs.live().isRunning(runId));
        // Told by the code that resumes it, so that no client reads the stored spec to guess.
        Optional<Problem> refusal = runs.resumeRefusal(run);
        detail.put("resumable", refusal.isEmpty());
        detail.set("resume_problem", refusal.map(Json::tree).orElse(NullNode.getInstance()));
        RunReport report = runs.report(runId);
        detail.set("coverage", Json.tree(report.coverage()));
        // What the run cost, summed from the cost each item kept when it ended (docs/cost.md).
        ObjectNode cost = report.costJson();
        ((ObjectNode) detail.get("run")).put("cost_usd", cost.path("cost_usd").asDouble());
        detail.set("cost", cost);
        detail.set("dimension_stats", Json.tree(report.spreads()));
        detail.set("intervals", Json.tree(report.intervals()));
        report.matrix().ifPresent(matrix -> detail.set("matrix", matrix.toJson()));
        report.headToHead().ifPresent(outcome -> detail.set("head_to_head", outcome.toJson()));
        detail.put("samples", report.samples());
        detail.set("pass_at_k", Json.tree(report.passAtK()));
        detail.set("pass_hat_k", Json.tree(report.passHatK()));
        detail.set("case_samples", Json.tree(report.sampleSpreads()));
        detail.set(
                "languages",
                Json.tree(RunReport.storedCases(runs.store(), report.run()).values().stream()
                        .map(Case::language)
                        .filter(language -> !language.isEmpty())
                        .distinct()
                        .sorted()
                        .toList()));
        detail.setAll(itemPage(ctx, runId));
        ctx.json(detail);
    }

    void items(Context ctx) {
        String runId = ctx.pathParam("run_id");
        runs.run(runId);
        ctx.json(itemPage(ctx, runId));
    }

    /**
     * Items come in pages (default 50, at most 500) so a run of 10 000 cases never loads at once; the filters of
     * {@link Requests#itemFilter} apply before paging, and each item carries its {@code position} in the whole list.
     */
    private ObjectNode itemPage(Context ctx, String runId) {
        int offset = Requests.integer(ctx, "offset", 0, 0, Integer.MAX_VALUE);
        int limit = Requests.integer(ctx, "limit", 50, 1, 500);
        Runs.FilteredPage filtered = runs.items(runId, Requests.itemFilter(ctx), offset, limit);
        ObjectNode page = Json.object();
        var items = page.putArray("items");
        filtered.items()
                .forEach(entry -> items.add(Views.itemSummary(entry.item()).put("position", entry.position())));
        page.put("items_total", filtered.total());
        page.put("offset", offset);
        page.put("limit", limit);
        return page;
    }

    void item(Context ctx) {
        ctx.json(runs.item(ctx.pathParam("run_id"), Requests.position(ctx)));
    }

    void delete(Context ctx) {
        String runId = ctx.pathParam("run_id");
        runs.delete(runId);
        ctx.json(Json.object().put("ok", true).put("run_id", runId).put("deleted", true));
    }

    void cancel(Context ctx) {
        String runId = ctx.pathParam("run_id");
        runs.cancel(runId)
                .ifPresentOrElse(
                        cancelled -> ctx.json(Json.object()
                                .put("ok", true)
                                .put("run_id", runId)
                                .put("status", cancelled.status().wireName())),
                        () -> ctx.status(202)
                                .json(Json.object()
                                        .put("ok", true)
                                        .put("run_id", runId)
                                        .put("status", "cancelling")));
    }

    void report(Context ctx) throws IOException {
        String format = ctx.queryParam("format") == null
                ? "html"
                : ctx.queryParam("format").strip();
        format = format.equals("md") ? "markdown" : format;
        if (!reporters.names().contains(format)) {
            throw ApiProblems.badField("format", "format must be one of " + String.join(", ", reporters.names()));
        }
        Reporter reporter = reporters.get(format);
        RunReport report = RunReport.load(runs.store(), ctx.pathParam("run_id"));
        // Written to a temporary file and sent from it, deleted once sent (Javalin closes a result stream): a large
        // run's report (180 MB of JSON at 100 000 items) is never held in the server's memory, and one that fails is
        // an error response rather than a cut document.
        Path file = Files.createTempFile("assay-report-", ".partial");
        try (OutputStream out = Files.newOutputStream(file)) {
            reporter.write(report, out);
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(file);
            throw e;
        }
        String fileName = report.run().runId() + "-" + reporter.fileName();
        // A report holds model output and is opened inline on the page's origin, where the admin token is kept: as
        // a sandboxed document (an origin of its own, no scripts) it could not reach the token even if some output
        // slipped through the reporter's escaping.
        ctx.header("Content-Security-Policy", "sandbox");
        ctx.contentType(CONTENT_TYPES.getOrDefault(format, "application/octet-stream"))
                .header(
                        "Content-Disposition",
                        (ctx.queryParam("download") != null ? "attachment" : "inline") + "; filename=\"" + fileName
                                + "\"")
                .result(Files.newInputStream(file, StandardOpenOption.DELETE_ON_CLOSE));
    }

    void compare(Context ctx) {
        Run a = runs.run(resolved(ctx, "a"));
        Run b = runs.run(resolved(ctx, "b"));
        // The runs' own cluster field unless the request names one.
        String clusterBy = ctx.queryParam("cluster_by");
        ctx.json(
                clusterBy == null || clusterBy.isBlank()
                        ? RunComparison.of(runs.store(), a, b)
                        : RunComparison.of(runs.store(), a, b, clusterBy.strip()));
    }

    /** The run id a query parameter names, whole or by a unique prefix as on the command line. */
    private String resolved(Context ctx, String name) {
        String given = required(ctx, name);
        try {
            return RunIds.resolve(runs.store(), given);
        } catch (AssayException notOne) {
            throw new AssayException(notOne.problem().withDetail("field", name), notOne);
        }
    }

    private static String required(Context ctx, String name) {
        String value = ctx.queryParam(name);
        if (value == null || value.isBlank()) {
            throw ApiProblems.badField(name, "query parameter " + name + " (a run id) is required");
        }
        return value.strip();
    }
}
