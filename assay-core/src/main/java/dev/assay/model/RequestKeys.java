package dev.assay.model;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.assay.IdentityMemo;
import dev.assay.Json;
import dev.assay.tools.ToolSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The keys of chat model answers ({@link ResponseCache#key}): the SHA-256 of the JSON object {@code {model, endpoint,
 * scope, messages, tools, temperature, seed, max_tokens}}, written straight into the digest. The tools offered are the
 * same list with every request of a run, and most of the text: their JSON is written once per list. Thread-safe.
 */
final class RequestKeys {
    private static final IdentityMemo<List<ToolSpec>, String> TOOLS = new IdentityMemo<>(Json::write);

    private RequestKeys() {}

    static String of(ChatModel model, String scope, ModelRequest request) {
        MessageDigest sha = sha256();
        try (var digest = new DigestOutputStream(OutputStream.nullOutputStream(), sha);
                JsonGenerator json = Json.MAPPER.getFactory().createGenerator(digest)) {
            json.writeStartObject();
            json.writeStringField("model", model.name());
            json.writeStringField("endpoint", model.endpoint());
            json.writeStringField("scope", scope);
            json.writeFieldName("messages");
            Json.MAPPER.writeValue(json, request.messages());
            json.writeFieldName("tools");
            json.writeRawValue(TOOLS.get(request.tools()));
            json.writeFieldName("temperature");
            json.writeObject(request.temperature());
            json.writeFieldName("seed");
            json.writeObject(request.seed());
            json.writeFieldName("max_tokens");
            json.writeObject(request.maxTokens());
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("hashing in memory failed", e);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** {@return a new SHA-256 digest, what every key of kept answers is} */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
