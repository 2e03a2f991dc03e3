package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import java.util.Set;

/**
 * {@code json_contains} (the reference server's tenth checker): a JSON document contains the required value by the
 * subset rule of {@link JsonSubset}. Expected: {@code {"path": "...", "required": {...}}}; without {@code path} the
 * final answer is the document (see {@link JsonDocument}). Fails with the file error types, {@code json.invalid}, or
 * {@code json_contains.mismatch} whose detail names the first place that differs.
 *
 * @param document where the JSON is read from
 * @param required the required subset
 */
record JsonContainsChecker(JsonDocument document, JsonNode required) implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("json_contains", JsonContainsChecker::create);

    JsonContainsChecker {
        required = required.deepCopy();
    }

    static JsonContainsChecker create(JsonNode node) {
        var expected = Expected.of("json_contains", node);
        if (!expected.isObject()) {
            throw expected.invalid("an object {\"path\": ..., \"required\": ...}");
        }
        expected.onlyKeys(Set.of("path", "required"));
        if (!node.has("required")) {
            throw expected.invalid("required", "any JSON value (null included)", null);
        }
        return new JsonContainsChecker(JsonDocument.from(expected), node.get("required"));
    }

    @Override
    public Verdict check(CheckContext context) {
        ObjectNode detail = Json.object();
        detail.put("path", document.source());
        detail.set("required", required);
        return switch (document.read(context)) {
            case StepResult.Failed<JsonNode>(Problem problem) -> {
                detail.put("error", problem.message());
                yield Verdict.failed(problem.type(), problem.message(), detail);
            }
            case StepResult.Ok<JsonNode>(JsonNode actual) -> {
                var mismatch = JsonSubset.firstMismatch(required, actual);
                detail.put("matched", mismatch.isEmpty());
                detail.set("mismatch", mismatch.map(JsonSubset.Mismatch::toJson).orElse(null));
                yield Verdict.of(
                        mismatch.isEmpty(),
                        "json_contains.mismatch",
                        mismatch.map(m -> "differs at '" + m.path() + "' (" + m.kind() + ")")
                                .orElse(""),
                        detail);
            }
        };
    }
}
