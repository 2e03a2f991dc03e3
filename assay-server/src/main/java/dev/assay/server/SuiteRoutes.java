package dev.assay.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.model.ChatModels;
import dev.assay.report.Reporters;
import dev.assay.tools.ToolNames;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * {@code /api/suites} (the case sets a run may name), {@code /api/datasets} (the dialog datasets) and {@code /api/info}
 * (what the page's form offers).
 */
final class SuiteRoutes {
    private final CaseSets caseSets;
    private final Datasets datasets;
    private final ServerConfig config;

    SuiteRoutes(CaseSets caseSets, Datasets datasets, ServerConfig config) {
        this.caseSets = caseSets;
        this.datasets = datasets;
        this.config = config;
    }

    void register(RoutesConfig routes) {
        routes.get("/api/suites", this::suites);
        routes.get("/api/datasets", this::datasets);
        routes.get("/api/info", this::info);
    }

    void datasets(Context ctx) {
        ctx.json(Json.object().set("datasets", datasets.list()));
    }

    void suites(Context ctx) {
        ctx.json(Json.object().set("suites", caseSets.list()));
    }

    void info(Context ctx) {
        ObjectNode info = Json.object();
        // The agent loop always offers final_answer (ToolOptions), so it is no switch.
        info.set(
                "tools",
                Json.tree(ToolNames.BUILTIN.stream()
                        .filter(tool -> !tool.equals(ToolNames.FINAL_ANSWER))
                        .toList()));
        info.set("model_kinds", Json.tree(ChatModels.MODEL_KINDS));
        info.set("report_formats", Json.tree(Reporters.builtins().names()));
        info.put("reads_need_token", config.readsNeedToken());
        ctx.json(info);
    }
}
