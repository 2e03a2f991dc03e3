package dev.assay.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.model.internal.RequestKeys;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Answers of the calls a run makes (the model of the agent loop, a judge model, an agent service, a dialog's turns),
 * kept as JSON by a hash of what determines them, so a question already paid for is not asked again: within a run
 * always (a resumed run replays the calls its first process made), across runs when the user asks for it. Only answers
 * are kept, never failures. Implementations are thread-safe.
 */
public interface ResponseCache {
    /** Keeps nothing: every call goes out. */
    ResponseCache NONE = new ResponseCache() {
        @Override
        public Optional<JsonNode> find(String key) {
            return Optional.empty();
        }

        @Override
        public void keep(String key, JsonNode answer) {}

        @Override
        public ResponseCache withinRun() {
            return this;
        }

        @Override
        public boolean looksUp() {
            return false;
        }
    };

    /** {@return the answer kept under the key, if any} */
    Optional<JsonNode> find(String key);

    /** Keeps an answer under the key. */
    void keep(String key, JsonNode answer);

    /**
     * Keeps a chat model's answer under the key, as the JSON it is written as; a cache that stores text writes it so.
     */
    default void keep(String key, ModelResponse answer) {
        keep(key, Json.tree(answer));
    }

    /**
     * {@return whether {@link #find} may find anything}: false for a cache that only keeps answers (a new run's, which
     * has none yet), where no key of an earlier version is worth making
     */
    default boolean looksUp() {
        return true;
    }

    /**
     * {@return this cache without the answers of other runs} (what a caller that must not reuse them across runs asks,
     * {@code defaults.judge_cache: false}); a cache that is not a run's keeps nothing
     */
    ResponseCache withinRun();

    /**
     * {@return the model's answer to the request: the kept one, else a fresh one, which is then kept} A failure of the
     * model propagates and is not kept.
     *
     * @param scope what besides the request tells answers apart: the case and sample ({@code case#2}), so each sample
     *     of a case gets its own answer
     */
    default ModelResponse complete(ChatModel model, String scope, ModelRequest request) throws InterruptedException {
        String key = key(model, scope, request);
        Optional<JsonNode> kept = find(key);
        if (kept.isEmpty() && looksUp()) {
            // Kept by an earlier version (a run it left interrupted, or --cache), under the key it made.
            kept = find(RequestKeys.legacy(model, scope, request));
        }
        if (kept.isPresent()) {
            ModelResponse answer = Json.MAPPER.convertValue(kept.get(), ModelResponse.class);
            return new ModelResponse(
                    answer.text(),
                    answer.reasoning(),
                    answer.toolCalls(),
                    answer.usage().servedFromCache(),
                    answer.finishReason());
        }
        ModelResponse response = model.complete(request);
        keep(key, response);
        return response;
    }

    /**
     * {@return the hash of what determines an answer: the model and its endpoint, the scope, the messages, the tools
     * offered and the sampling parameters} The time limit does not change the answer and is left out. Earlier versions
     * made another key of the same request; {@link #complete} finds their answers too.
     */
    static String key(ChatModel model, String scope, ModelRequest request) {
        return RequestKeys.of(model, scope, request);
    }

    /** {@return the hex SHA-256 of the material's JSON: a key for answers that are not a chat model's} */
    static String hash(JsonNode material) {
        return sha256(Json.write(material));
    }

    /** {@return the hex SHA-256 of the text's UTF-8 bytes} */
    static String sha256(String text) {
        return HexFormat.of().formatHex(RequestKeys.sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
