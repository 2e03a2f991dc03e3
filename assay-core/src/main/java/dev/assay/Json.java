package dev.assay;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.util.Collection;

/**
 * The one JSON mapping of Assay: snake_case on the wire (as in case files, reports and the database), camelCase in
 * Java, ISO-8601 instants. Thread-safe.
 */
public final class Json {
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .addModule(new JavaTimeModule())
            .addModule(new Jdk8Module())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            // Values written one at a time into a generator (report.json's items, a suite's cases) would otherwise
            // each flush it: one write system call per item, a quarter of report.json's time at 10 000 items. A
            // generator is flushed when it is closed, and nothing writes to a stream read while it is being written.
            .disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .defaultPropertyInclusion(
                    JsonInclude.Value.construct(JsonInclude.Include.ALWAYS, JsonInclude.Include.ALWAYS))
            .build();

    private Json() {}

    public static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /**
     * {@return the texts as a JSON array}: the same tree as {@link #tree} makes of them, without the round trip through
     * a token buffer that costs a checker's verdict more than its check
     */
    public static ArrayNode strings(Collection<String> texts) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode(texts.size());
        texts.forEach(array::add);
        return array;
    }

    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new AssayException(Problem.of("json.write", e.getOriginalMessage()), e);
        }
    }

    public static <T> T read(String text, Class<T> type) {
        return reading(() -> MAPPER.readValue(text, type));
    }

    /** Reads JSON text into a generic type ({@code List<String>}); the same failure as {@link #read(String, Class)}. */
    public static <T> T read(String text, TypeReference<T> type) {
        return reading(() -> MAPPER.readValue(text, type));
    }

    /**
     * Reads JSON in UTF-8 bytes; the same failure as {@link #read(String, Class)}. Bytes as a database or a file holds
     * them are read faster than the text made of them: no string is made, and Jackson's byte parser is its fastest.
     */
    public static <T> T read(byte[] utf8, Class<T> type) {
        return reading(() -> MAPPER.readValue(utf8, type));
    }

    /** Reads JSON in UTF-8 bytes into a generic type; the same failure as {@link #read(String, Class)}. */
    public static <T> T read(byte[] utf8, TypeReference<T> type) {
        return reading(() -> MAPPER.readValue(utf8, type));
    }

    /** {@return the tree of JSON in UTF-8 bytes}; the same failure as {@link #read(String, Class)} */
    public static JsonNode parse(byte[] utf8) {
        return read(utf8, JsonNode.class);
    }

    /** What reads a value; bytes in memory fail only as JSON does. */
    @FunctionalInterface
    private interface Reading<T> {
        T read() throws IOException;
    }

    private static <T> T reading(Reading<T> reading) {
        try {
            return reading.read();
        } catch (JsonProcessingException e) {
            throw new AssayException(Problem.of("json.invalid", e.getOriginalMessage()), e);
        } catch (IOException e) {
            throw new AssayException(Problem.of("json.invalid", e.getMessage()), e);
        }
    }

    public static JsonNode parse(String text) {
        return read(text, JsonNode.class);
    }
}
