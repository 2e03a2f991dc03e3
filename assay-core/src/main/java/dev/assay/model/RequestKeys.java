package dev.assay.model;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
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
 * same list with every request of a run, and most of the text: their JSON is written and encoded once per list.
 * Thread-safe.
 */
final class RequestKeys {
    // Kept with its UTF-8 bytes (SerializedString), which every key copies into the digest rather than encodes again.
    private static final IdentityMemo<List<ToolSpec>, SerializedString> TOOLS =
            new IdentityMemo<>(tools -> new SerializedString(Json.write(tools)));

    /** Cloned for each key: looking SHA-256 up among the security providers costs more than hashing a short key. */
    private static final MessageDigest SHA_256 = newSha256();

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
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 can be cloned", e);
        }
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
