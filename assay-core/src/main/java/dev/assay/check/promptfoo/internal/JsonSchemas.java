package dev.assay.check.promptfoo.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.assay.Yaml;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The JSON schemas of {@code is-json} and {@code contains-json}: written as an object, or as YAML or JSON text, and
 * read as promptfoo's Ajv reads them, draft-07 unless {@code $schema} names another dialect. Remote {@code $ref}s are
 * never fetched. Thread-safe.
 */
final class JsonSchemas {
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_7,
            builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));

    private JsonSchemas() {}

    /** {@return the schema a value gives, or empty when it gives none the validator accepts} */
    static Optional<Schema> compile(JsonNode value) {
        JsonNode schema = value;
        if (value.isTextual()) {
            try {
                schema = Yaml.MAPPER.readTree(value.asText());
            } catch (JsonProcessingException e) {
                return Optional.empty();
            }
        }
        if (schema == null || !(schema.isObject() || schema.isBoolean())) {
            return Optional.empty();
        }
        try {
            Schema compiled = REGISTRY.getSchema(schema);
            compiled.initializeValidators();
            return Optional.of(compiled);
        } catch (RuntimeException e) {
            // The validator reports unresolvable $refs, bad patterns and the like as exceptions.
            return Optional.empty();
        }
    }

    /** {@return the validation errors as one text, as Ajv's errorsText joins them} */
    static String errorsText(List<Error> errors) {
        return errors.stream().map(Error::toString).collect(Collectors.joining(", "));
    }
}
