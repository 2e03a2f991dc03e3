package dev.assay.cases;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * A suite's version ({@link SuiteSnapshots#version}) hashed one case at a time, as the cases are accepted: hex SHA-256
 * over the canonical document {@code {"cases":[...],"fixtures":{...}}}, keys sorted, where each case was read from left
 * out. A loader that takes back the cases of a file that failed half-way takes back their hashing too ({@link #mark},
 * {@link #reset}). Not thread-safe.
 */
final class SuiteVersion {
    /** Where the hashing stood: the digest's state and how many cases it had taken. */
    record Mark(MessageDigest digest, int cases) {}

    /** Writes a tree with every object's keys in order: the canonical form that is hashed. */
    private static final ObjectWriter SORTED = Json.MAPPER.writer().with(JsonNodeFeature.WRITE_PROPERTIES_SORTED);

    private MessageDigest digest = sha256();
    private int cases;

    SuiteVersion() {
        update("{\"cases\":[");
    }

    void add(Case evalCase) {
        if (cases++ > 0) {
            update(",");
        }
        ObjectNode caseNode = Json.MAPPER.valueToTree(SuiteSnapshots.CaseDoc.of(evalCase));
        caseNode.remove("source");
        write(caseNode);
    }

    Mark mark() {
        try {
            return new Mark((MessageDigest) digest.clone(), cases);
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 can be cloned", e);
        }
    }

    void reset(Mark mark) {
        try {
            digest = (MessageDigest) mark.digest().clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 can be cloned", e);
        }
        cases = mark.cases();
    }

    /** {@return the version of the cases added, with these fixtures}; the hashing ends here */
    String finish(Map<String, String> fixtures) {
        update("],\"fixtures\":");
        write(Json.MAPPER.valueToTree(new TreeMap<>(fixtures)));
        update("}");
        return HexFormat.of().formatHex(digest.digest());
    }

    private void update(String text) {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
    }

    private void write(JsonNode node) {
        try (var hashed = new DigestOutputStream(OutputStream.nullOutputStream(), digest)) {
            SORTED.writeValue(hashed, node);
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
