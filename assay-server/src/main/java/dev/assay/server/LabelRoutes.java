package dev.assay.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.report.Calibration;
import dev.assay.result.Item;
import dev.assay.result.Label;
import dev.assay.store.RunIds;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;

/**
 * People's labels of checks and the judges' agreement with them (docs/judge.md, "Human labels"): label an item's check,
 * list a run's labels, and calibrate the judges of some runs. A label is kept beside the machine verdict, never over
 * it.
 */
final class LabelRoutes {
    private final Runs runs;

    LabelRoutes(Runs runs) {
        this.runs = runs;
    }

    void register(RoutesConfig routes) {
        routes.get("/api/runs/{run_id}/labels", this::list);
        routes.post("/api/runs/{run_id}/items/{position}/labels", this::label);
        routes.get("/api/judges/calibration", this::calibration);
    }

    void list(Context ctx) {
        String runId = ctx.pathParam("run_id");
        runs.run(runId);
        ObjectNode page = Json.object();
        var labels = page.putArray("labels");
        runs.store().listLabels(runId).forEach(label -> labels.add(label.toJson()));
        ctx.json(page);
    }

    /**
     * Body {@code {"check": N, "label": "pass"|"fail", "score": n, "note": "...", "by": "ann"}} (label or score, or
     * both); {@code by} defaults to {@code api}. Answers 201 with the label kept.
     */
    void label(Context ctx) {
        Item item = runs.item(ctx.pathParam("run_id"), Requests.position(ctx));
        JsonNode body = Requests.body(ctx);
        String by = body.path("by").asText("").isBlank()
                ? "api"
                : body.path("by").asText().strip();
        Label label = Label.fromJson(body, item, by, Instant.now().truncatedTo(ChronoUnit.MILLIS));
        runs.store().saveLabel(label);
        ctx.status(201).json(label.toJson());
    }

    /** {@code ?runs=A,B}: those runs' labels; without it every labelled run's. */
    void calibration(Context ctx) {
        String given = ctx.queryParam("runs");
        List<String> runIds = given == null || given.isBlank()
                ? runs.store().labelledRuns()
                : Arrays.stream(given.split(","))
                        .map(String::strip)
                        .filter(id -> !id.isEmpty())
                        .map(id -> RunIds.resolve(runs.store(), id))
                        .toList();
        ctx.json(Calibration.of(runs.store(), runIds).toJson());
    }
}
