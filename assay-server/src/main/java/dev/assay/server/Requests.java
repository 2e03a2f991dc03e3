package dev.assay.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.result.ItemStatus;
import dev.assay.result.RunKind;
import dev.assay.result.RunStatus;
import dev.assay.store.RunQuery;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.stream.Collectors;

/** Reads query parameters and bodies, naming the field in every refusal. */
final class Requests {
    /** Every run status by its wire name, from the enum, so a refusal never leaves one out. */
    private static final String RUN_STATUSES =
            Arrays.stream(RunStatus.values()).map(RunStatus::wireName).collect(Collectors.joining(", "));

    private Requests() {}

    static JsonNode body(Context ctx) {
        String text = ctx.body();
        if (text.isBlank()) {
            return Json.object();
        }
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw ApiProblems.badField("body", "the body is not valid JSON: " + e.getOriginalMessage());
        }
    }

    static int integer(Context ctx, String name, int otherwise, int min, int max) {
        String value = ctx.queryParam(name);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // refused below, like an out-of-range number
        }
        throw ApiProblems.badField(name, name + " must be a whole number in " + min + ".." + max);
    }

    /** A position in a run's item list from the path. */
    static int position(Context ctx) {
        try {
            int position = Integer.parseInt(ctx.pathParam("position"));
            if (position >= 0) {
                return position;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw ApiProblems.badField("position", "position must be a whole number >= 0");
    }

    /**
     * Run filters and paging: {@code user_id}, {@code model_name} (substring), {@code status}, {@code kind}
     * ({@code capability} or {@code dialog}), {@code since} / {@code until} (ISO-8601 instants or epoch seconds; the
     * plan's {@code since_time} / {@code until_time} too), {@code offset}, {@code limit} (default 50, at most 1000).
     */
    static RunQuery runQuery(Context ctx) {
        RunStatus status = null;
        String statusText = blankToNull(ctx.queryParam("status"));
        if (statusText != null) {
            try {
                status = RunStatus.parse(statusText);
            } catch (IllegalArgumentException e) {
                throw ApiProblems.badField("status", "status must be one of " + RUN_STATUSES);
            }
        }
        String kindText = blankToNull(ctx.queryParam("kind"));
        if (kindText != null
                && !kindText.equals(RunKind.CAPABILITY.wireName())
                && !kindText.equals(RunKind.DIALOG.wireName())) {
            throw ApiProblems.badField("kind", "kind must be " + RunKind.CAPABILITY + " or " + RunKind.DIALOG);
        }
        RunKind kind = kindText == null ? null : RunKind.parse(kindText);
        return new RunQuery(
                blankToNull(ctx.queryParam("user_id")),
                blankToNull(ctx.queryParam("model_name")),
                status,
                kind,
                instant(ctx, "since", "since_time"),
                instant(ctx, "until", "until_time"),
                integer(ctx, "offset", 0, 0, Integer.MAX_VALUE),
                integer(ctx, "limit", 50, 1, 1000));
    }

    /**
     * Item filters: {@code status} (one or several, comma-separated), {@code dimension}, {@code language}, {@code tag},
     * {@code q} (text) and {@code case_id}.
     */
    static ItemFilter itemFilter(Context ctx) {
        var statuses = new LinkedHashSet<ItemStatus>();
        String statusText = blankToNull(ctx.queryParam("status"));
        if (statusText != null) {
            for (String name : statusText.split(",")) {
                try {
                    statuses.add(ItemStatus.parse(name));
                } catch (IllegalArgumentException e) {
                    throw ApiProblems.badField(
                            "status",
                            "status must be one or more (comma-separated) of "
                                    + "passed, failed, partial, skipped, error, cancelled");
                }
            }
        }
        return new ItemFilter(
                statuses,
                blankToNull(ctx.queryParam("dimension")),
                blankToNull(ctx.queryParam("language")),
                blankToNull(ctx.queryParam("tag")),
                blankToNull(ctx.queryParam("q")),
                blankToNull(ctx.queryParam("case_id")));
    }

    private static Instant instant(Context ctx, String name, String planName) {
        String field = ctx.queryParam(name) != null ? name : planName;
        String value = blankToNull(ctx.queryParam(field));
        if (value == null) {
            return null;
        }
        try {
            return value.matches("-?\\d+(\\.\\d+)?")
                    ? Instant.ofEpochMilli((long) (Double.parseDouble(value) * 1000))
                    : Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw ApiProblems.badField(field, field + " must be an ISO-8601 instant or epoch seconds");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
