package dev.assay.report.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.assay.Json;
import java.io.IOException;

/**
 * Stored JSON text that writes itself out token by token where it is serialized: the same output as the tree it would
 * be read into (the generator's indentation included), without the tree. For writing a stored value out, never for
 * reading it: as a node it is opaque.
 */
final class CopiedJson implements JsonSerializable {
    private final String json;

    private CopiedJson(String json) {
        this.json = json;
    }

    /** {@return a node that writes {@code json} out as it is}; JSON null for none */
    static JsonNode of(String json) {
        // Blank as the store's reading of it gives: no value.
        return json == null || json.isBlank() ? NullNode.getInstance() : new POJONode(new CopiedJson(json));
    }

    @Override
    public void serialize(JsonGenerator generator, SerializerProvider serializers) throws IOException {
        try (JsonParser parser = Json.MAPPER.createParser(json)) {
            parser.nextToken();
            generator.copyCurrentStructure(parser);
        }
    }

    @Override
    public void serializeWithType(JsonGenerator generator, SerializerProvider serializers, TypeSerializer type)
            throws IOException {
        serialize(generator, serializers);
    }
}
