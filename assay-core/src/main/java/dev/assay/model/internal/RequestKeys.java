package dev.assay.model.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.assay.Json;
import dev.assay.internal.IdentityMemo;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ResponseCache;
import dev.assay.tools.ToolSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The keys of chat model answers ({@link ResponseCache#key}): the SHA-256 of the JSON object {@code {model, endpoint,
 * scope, messages, tools_sha256, temperature, seed, max_tokens}}, written straight into the digest, where
 * {@code tools_sha256} is the hex SHA-256 of the JSON of the tools offered. The tools are the same list with every
 * request of a run and most of its text (3.6 KiB of the 4 KiB of a request with the workspace tools): they are hashed
 * once per list, not once per request. The launchers run the client compiler alone, which has no SHA-256 intrinsic, so
 * hashing them with every request cost about 7 % of a run's CPU against a 0 ms endpoint. Thread-safe.
 *
 * <p>Answers kept by earlier versions are under {@link #legacy} keys, which hashed the tools' JSON itself; a cache that
 * looks answers up also looks there ({@link ResponseCache#complete}).
 */
public final class RequestKeys {
    // Hashed once per list; every request of a run is given the same instance.
    private static final IdentityMemo<List<ToolSpec>, String> TOOLS_SHA_256 =
            new IdentityMemo<>(tools -> hex(sha256().digest(Json.write(tools).getBytes(StandardCharsets.UTF_8))));

    // Kept with its UTF-8 bytes (SerializedString), which every legacy key copies into the digest.
    private static final IdentityMemo<List<ToolSpec>, SerializedString> TOOLS_JSON =
            new IdentityMemo<>(tools -> new SerializedString(Json.write(tools)));

    /** Cloned for each key: looking SHA-256 up among the security providers costs more than hashing a short key. */
    private static final MessageDigest SHA_256 = newSha256();

    private RequestKeys() {}

    public static String of(ChatModel model, String scope, ModelRequest request) {
        return key(
                model,
                scope,
                request,
                json -> json.writeStringField("tools_sha256", TOOLS_SHA_256.get(request.tools())));
    }

    /** {@return the key an answer to the request was kept under before {@link #of}: the tools' JSON hashed whole} */
    public static String legacy(ChatModel model, String scope, ModelRequest request) {
        return key(model, scope, request, json -> {
            json.writeFieldName("tools");
            json.writeRawValue(TOOLS_JSON.get(request.tools()));
        });
    }

    private interface Field {
        void write(JsonGenerator json) throws IOException;
    }

    private static String key(ChatModel model, String scope, ModelRequest request, Field tools) {
        MessageDigest sha = sha256();
        try (var digest = new DigestOutputStream(OutputStream.nullOutputStream(), sha);
                JsonGenerator json = Json.MAPPER.getFactory().createGenerator(digest)) {
            json.writeStartObject();
            json.writeStringField("model", model.name());
            json.writeStringField("endpoint", model.endpoint());
            json.writeStringField("scope", scope);
            json.writeFieldName("messages");
            Json.MAPPER.writeValue(json, request.messages());
            tools.write(json);
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
        return hex(sha.digest());
    }

    /** {@return a new SHA-256 digest, what every key of kept answers is} */
    public static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 can be cloned", e);
        }
    }

    private static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest);
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
