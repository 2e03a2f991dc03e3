package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import java.util.List;
import java.util.Set;

/**
 * {@code json_schema}: a JSON document is valid against a JSON Schema. Expected: {@code {"path": "...", "schema":
 * {...}}} validates a workspace file; {@code {"schema": {...}}} validates the final answer (a {@code ```json} fenced
 * block in it is taken, see {@link JsonDocument}). The dialect is 2020-12 (the MCP default, docs/checkers.md,
 * "json_schema") unless the schema's {@code $schema} names another. A schema that is not valid against its dialect's
 * meta-schema is rejected when the suite loads. Remote {@code $ref}s are never fetched, so judging needs no network.
 * Fails with the file error types, {@code json.invalid}, or {@code json_schema.invalid} listing the validation errors
 * (at most {@link #MAX_ERRORS}).
 *
 * @param document where the JSON is read from
 * @param schemaJson the schema as written
 * @param schema the compiled schema (thread-safe once its validators are initialised)
 */
record JsonSchemaChecker(JsonDocument document, JsonNode schemaJson, Schema schema) implements Checker {
    static final CheckerFactory FACTORY = new BuiltinFactory("json_schema", JsonSchemaChecker::create);
    static final int MAX_ERRORS = 20;
    private static final SpecificationVersion DEFAULT_DIALECT = SpecificationVersion.DRAFT_2020_12;

    /**
     * The registry, made when a suite first uses {@code json_schema}: every run registers this checker, and making it
     * (the validator's dialects and meta-schemas) was a twelfth of a 10-case run's main thread in one without it.
     */
    private static final class Registry {
        static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
                DEFAULT_DIALECT, builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));

        private Registry() {}
    }

    static JsonSchemaChecker create(JsonNode node) {
        var expected = Expected.of("json_schema", node);
        if (!expected.isObject()) {
            throw expected.invalid("an object {\"schema\": {...}} with an optional \"path\"");
        }
        expected.onlyKeys(Set.of("path", "schema"));
        JsonNode schemaJson = expected.requiredField("schema");
        if (!schemaJson.isObject() && !schemaJson.isBoolean()) {
            throw expected.invalid("schema", "a JSON Schema (an object or a boolean)", schemaJson);
        }
        return new JsonSchemaChecker(JsonDocument.from(expected), schemaJson.deepCopy(), compile(expected, schemaJson));
    }

    private static Schema compile(Expected expected, JsonNode schemaJson) {
        try {
            var dialect = SpecificationVersion.fromSchemaNode(schemaJson).orElse(DEFAULT_DIALECT);
            if (schemaJson.has("$schema")
                    && SpecificationVersion.fromSchemaNode(schemaJson).isEmpty()) {
                throw expected.invalid(
                        "schema.$schema",
                        "a known dialect (draft-04, -06, -07, 2019-09, 2020-12)",
                        schemaJson.get("$schema"));
            }
            Schema metaSchema = Registry.REGISTRY.getSchema(SchemaLocation.of(dialect.getDialectId()));
            List<Error> errors = metaSchema.validate(schemaJson);
            if (!errors.isEmpty()) {
                throw expected.invalid(
                        "schema",
                        "a valid " + dialect.getDialectId() + " schema ("
                                + errors.getFirst().toString() + ")",
                        schemaJson);
            }
            Schema schema = Registry.REGISTRY.getSchema(schemaJson);
            schema.initializeValidators();
            return schema;
        } catch (AssayException e) {
            throw e;
        } catch (RuntimeException e) {
            // The validator reports unresolvable $refs, bad regular expressions and the like as exceptions.
            throw expected.invalid("schema", "a schema the validator accepts (" + e.getMessage() + ")", schemaJson);
        }
    }

    @Override
    public Verdict check(CheckContext context) {
        ObjectNode detail = Json.object();
        detail.put("path", document.source());
        return switch (document.read(context)) {
            case StepResult.Failed<JsonNode>(Problem problem) -> {
                detail.put("error", problem.message());
                yield Verdict.failed(problem.type(), problem.message(), detail);
            }
            case StepResult.Ok<JsonNode>(JsonNode actual) -> {
                List<Error> errors;
                try {
                    errors = schema.validate(actual);
                } catch (RuntimeException e) {
                    // A fault of the validator, not of the model: an error verdict, which the run does not score.
                    yield Verdict.error(Problem.of("json_schema.validator_error", String.valueOf(e.getMessage())));
                }
                detail.put("valid", errors.isEmpty());
                detail.put("error_count", errors.size());
                ArrayNode list = detail.putArray("errors");
                errors.stream().limit(MAX_ERRORS).forEach(error -> {
                    ObjectNode item = list.addObject();
                    item.put("instance_location", String.valueOf(error.getInstanceLocation()));
                    item.put("keyword", error.getKeyword());
                    item.put("message", error.getMessage());
                });
                yield Verdict.of(
                        errors.isEmpty(),
                        "json_schema.invalid",
                        errors.size() + " schema violation(s)"
                                + (errors.isEmpty()
                                        ? ""
                                        : ", first: " + errors.getFirst().getMessage()),
                        detail);
            }
        };
    }
}
