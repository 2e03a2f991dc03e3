package dev.assay.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.store.RunQuery;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * The reference server's admin paths (docs/api.md, "Reference aliases"), kept so an existing page or script keeps
 * working. They call the same {@link Runs} operations as {@code /api}; only the response fields differ: runs in the
 * reference's record shape ({@link Views#wunderRun}), {@code {ok: false, message}} for cancelling an unknown or ended
 * run, {@code {ok, run_id, deleted, message}} for a delete.
 */
final class WunderAliases {
    static final String PREFIX = "/wunder/admin/evaluation";

    private final Runs runs;
    private final CaseSets caseSets;

    WunderAliases(Runs runs, CaseSets caseSets) {
        this.runs = runs;
        this.caseSets = caseSets;
    }

    void register(RoutesConfig routes, StreamRoutes streams) {
        routes.post(PREFIX + "/start", this::start);
        routes.post(PREFIX + "/{run_id}/cancel", this::cancel);
        routes.get(PREFIX + "/runs", this::list);
        routes.get(PREFIX + "/cases", this::cases);
        streams.register(routes, PREFIX + "/stream/{run_id}");
        routes.get(PREFIX + "/{run_id}", this::detail);
        routes.delete(PREFIX + "/{run_id}", this::delete);
    }

    void start(Context ctx) throws InterruptedException {
        ObjectNode started = runs.start(Requests.body(ctx));
        ctx.json(Json.object()
                .put("run_id", started.path("run_id").asText())
                .put("status", "running")
                .put("case_count", started.path("case_count").asInt())
                .set("selected_cases", started.path("selected_cases")));
    }

    void cancel(Context ctx) {
        try {
            runs.cancel(ctx.pathParam("run_id"));
            ctx.json(Json.object().put("ok", true));
        } catch (AssayException e) {
            ctx.json(Json.object().put("ok", false).put("message", "run not found"));
        }
    }

    void list(Context ctx) {
        RunQuery query = Requests.runQuery(ctx);
        ArrayNode list = Json.MAPPER.createArrayNode();
        runs.store().listRuns(query).forEach(run -> list.add(Views.wunderRun(run)));
        ctx.json(Json.object().set("runs", list));
    }

    void cases(Context ctx) {
        ArrayNode sets = Json.MAPPER.createArrayNode();
        caseSets.list()
                .forEach(set -> sets.addObject()
                        .put("case_set", set.path("name").asText())
                        .put("language", set.path("language").asText())
                        .put("case_count", set.path("case_count").asInt())
                        .set("dimensions", set.path("dimensions")));
        ctx.json(Json.object().set("case_sets", sets));
    }

    void detail(Context ctx) {
        String runId = ctx.pathParam("run_id");
        ObjectNode detail = Json.object();
        detail.set("run", Views.wunderRun(runs.run(runId)));
        detail.set("coverage", Json.tree(runs.coverage(runId)));
        ArrayNode items = detail.putArray("items");
        int offset = Requests.integer(ctx, "offset", 0, 0, Integer.MAX_VALUE);
        int limit = Requests.integer(ctx, "limit", 1000, 1, 1000);
        runs.items(runId, offset, limit).forEach(item -> items.add(Views.wunderItem(item)));
        ctx.json(detail);
    }

    void delete(Context ctx) {
        String runId = ctx.pathParam("run_id");
        runs.delete(runId);
        ctx.json(Json.object()
                .put("ok", true)
                .put("run_id", runId)
                .put("deleted", 1)
                .put("message", "deleted"));
    }
}
