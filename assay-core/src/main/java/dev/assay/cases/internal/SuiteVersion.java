package dev.assay.cases.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.cases.SuiteSnapshots;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A suite's version ({@link SuiteSnapshots#version}) hashed one case at a time, as the cases are accepted: hex SHA-256
 * over the canonical document {@code {"cases":[...],"fixtures":{...}}}, keys sorted, where each case was read from left
 * out. A loader that takes back the cases of a file that failed half-way takes back their hashing too ({@link #mark},
 * {@link #reset}). Not thread-safe.
 */
public final class SuiteVersion {
    /** Where the hashing stood: the digest's state and how many cases it had taken. */
    public record Mark(MessageDigest digest, int cases) {}

    /** Writes a tree with every object's keys in order: the canonical form that is hashed. */
    private static final ObjectWriter SORTED = Json.MAPPER.writer().with(JsonNodeFeature.WRITE_PROPERTIES_SORTED);

    private MessageDigest digest = sha256();
    private final DigestOutputStream hashed = new DigestOutputStream(OutputStream.nullOutputStream(), digest);
    // One generator for the whole document, its bytes flushed into the digest before the digest is read or copied.
    private final JsonGenerator json = generator(hashed);
    private int cases;

    public SuiteVersion() {
        update("{\"cases\":[");
    }

    public void add(Case evalCase) {
        if (cases++ > 0) {
            update(",");
        }
        write(canonical(evalCase));
    }

    /**
     * {@return a case's canonical node: what {@code valueToTree(CaseDoc.of(evalCase))} gives without its source}, built
     * field by field. Converting the record through Jackson's token buffer was half of a suite's hashing; the case's
     * JSON values (expected values, attributes) are parsed trees, which that conversion copied unchanged.
     */
    static ObjectNode canonical(Case evalCase) {
        JsonNodeFactory nodes = Json.MAPPER.getNodeFactory();
        ObjectNode node = nodes.objectNode();
        node.set("attributes", evalCase.attributes()); // never null: a case without any has an empty object
        ArrayNode checks = node.putArray("checks");
        for (Check check : evalCase.checks()) {
            checks.addObject()
                    .put("checker", check.checker())
                    .<ObjectNode>set("expected", check.expected())
                    .put("weight", check.weight());
        }
        node.put("dimension", evalCase.dimension());
        ObjectNode files = node.putObject("files");
        evalCase.files().forEach(files::put);
        node.put("id", evalCase.id());
        node.put("language", evalCase.language());
        strings(node.putArray("prerequisites"), evalCase.prerequisites());
        node.put("prompt", evalCase.prompt());
        strings(node.putArray("tags"), evalCase.tags());
        // Through Jackson's own conversion: it normalises a decimal (trailing zeros) as the version always has.
        node.set(
                "timeout_s",
                evalCase.timeout() == null
                        ? nodes.nullNode()
                        : Json.MAPPER.valueToTree(SuiteSnapshots.seconds(evalCase.timeout())));
        node.put("weight", evalCase.weight());
        return node;
    }

    /** {@return the hex SHA-256 of one case's canonical node}: equal for two cases exactly when the version would be */
    public static String fingerprint(Case evalCase) {
        try {
            return HexFormat.of().formatHex(sha256().digest(SORTED.writeValueAsBytes(canonical(evalCase))));
        } catch (IOException e) {
            throw new UncheckedIOException("hashing in memory failed", e);
        }
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    public Mark mark() {
        flush();
        try {
            return new Mark((MessageDigest) digest.clone(), cases);
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 can be cloned", e);
        }
    }

    public void reset(Mark mark) {
        flush();
        try {
            digest = (MessageDigest) mark.digest().clone();
            hashed.setMessageDigest(digest);
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 can be cloned", e);
        }
        cases = mark.cases();
    }

    /** {@return the version of the cases added, with these fixtures}; the hashing ends here */
    public String finish(Map<String, String> fixtures) {
        update("],\"fixtures\":");
        write(Json.MAPPER.valueToTree(new TreeMap<>(fixtures)));
        update("}");
        flush();
        return HexFormat.of().formatHex(digest.digest());
    }

    private void update(String text) {
        try {
            json.writeRaw(text);
        } catch (IOException e) {
            throw new UncheckedIOException("hashing in memory failed", e);
        }
    }

    private void flush() {
        try {
            json.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("hashing in memory failed", e);
        }
    }

    private static JsonGenerator generator(OutputStream out) {
        try {
            JsonGenerator generator = Json.MAPPER.getFactory().createGenerator(out);
            // The cases are written one after another as root values: no separator between them but the commas.
            generator.setRootValueSeparator(null);
            return generator;
        } catch (IOException e) {
            throw new UncheckedIOException("hashing in memory failed", e);
        }
    }

    private void write(JsonNode node) {
        try {
            SORTED.writeValue(json, node);
        } catch (IOException e) {
            throw new UncheckedIOException("hashing in memory failed", e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
