package dev.assay.cases;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.internal.SpilledCases;
import dev.assay.cases.internal.SuiteVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Suites as JSON documents: the content of a {@code CaseSetSnapshot}, and the content hash that is a suite's
 * {@link Suite#version()}. The document holds everything needed to rebuild the suite, so a stored run can say exactly
 * which cases it ran without the original files.
 */
public final class SuiteSnapshots {
    /** Written into every snapshot; bumped when the document changes incompatibly. */
    public static final int FORMAT_VERSION = 1;

    /**
     * Written into a snapshot whose cases are stored apart ({@link #withoutCases}): an Assay that knows only
     * {@link #FORMAT_VERSION} then says it cannot read the snapshot, rather than taking it for a suite without cases.
     */
    public static final int CASES_APART_FORMAT_VERSION = 2;

    private SuiteSnapshots() {}

    /** The stored document; field names are snake_case on the wire. */
    record SuiteDoc(
            int formatVersion,
            String name,
            String version,
            List<String> sources,
            Map<String, String> fixtures,
            List<CaseDoc> cases) {}

    public record CaseDoc(
            String id,
            String dimension,
            String language,
            String prompt,
            double weight,
            BigDecimal timeoutS,
            List<Check> checks,
            List<String> prerequisites,
            List<String> tags,
            Map<String, String> files,
            ObjectNode attributes,
            SourceRef source) {
        public static CaseDoc of(Case evalCase) {
            return new CaseDoc(
                    evalCase.id(),
                    evalCase.dimension(),
                    evalCase.language(),
                    evalCase.prompt(),
                    evalCase.weight(),
                    evalCase.timeout() == null ? null : seconds(evalCase.timeout()),
                    evalCase.checks(),
                    evalCase.prerequisites(),
                    evalCase.tags(),
                    evalCase.files(),
                    evalCase.attributes(),
                    evalCase.source());
        }

        Case toCase() {
            Duration timeout = timeoutS == null
                    ? null
                    : Duration.ofNanos(timeoutS.movePointRight(9).longValueExact());
            return new Case(
                    id,
                    dimension,
                    language,
                    prompt,
                    weight,
                    timeout,
                    orEmpty(checks),
                    orEmpty(prerequisites),
                    orEmpty(tags),
                    files == null ? Map.of() : files,
                    attributes,
                    source);
        }
    }

    /**
     * {@return the snapshot document of a suite as JSON text: format_version, name, version, sources, fixtures, cases}
     */
    public static String toJson(Suite suite) {
        return document(suite, true);
    }

    /**
     * {@return the snapshot document of a suite without its cases} ({@code cases} is empty): what a store keeps beside
     * {@link #caseDocuments}, so that a suite of any size is stored a case at a time
     */
    public static String withoutCases(Suite suite) {
        return document(suite, false);
    }

    /**
     * {@return each case's snapshot document, in the suite's order, made as it is asked for}: a large loaded suite's
     * documents are its scratch file's text, never parsed
     */
    public static Iterator<String> caseDocuments(Suite suite) {
        List<Case> cases = suite.cases();
        return IntStream.range(0, cases.size())
                .mapToObj(index -> cases instanceof SpilledCases spilled
                        ? spilled.document(index)
                        : Json.write(CaseDoc.of(cases.get(index))))
                .iterator();
    }

    /**
     * {@return the case one of {@link #caseDocuments} describes}
     *
     * @throws AssayException {@code snapshot.invalid} when the text is not a case's snapshot document
     */
    public static Case caseFromJson(String json) {
        try {
            CaseDoc doc = Json.MAPPER.readValue(json, CaseDoc.class);
            if (doc == null || doc.id() == null) {
                throw new IllegalArgumentException("a case's document needs `id`");
            }
            return doc.toCase();
        } catch (JsonProcessingException | RuntimeException e) {
            throw new AssayException(Problem.of("snapshot.invalid", "not a case's snapshot: " + e.getMessage()), e);
        }
    }

    private static String document(Suite suite, boolean withCases) {
        // Written case by case into UTF-8 bytes: a large suite's cases are read back from their scratch file one at a
        // time, and Jackson's string writer would hold the text twice over in chars.
        var bytes = new ByteArrayOutputStream();
        try (JsonGenerator json = Json.MAPPER.getFactory().createGenerator(bytes)) {
            json.writeStartObject();
            json.writeNumberField("format_version", withCases ? FORMAT_VERSION : CASES_APART_FORMAT_VERSION);
            json.writeStringField("name", suite.name());
            json.writeStringField("version", suite.version());
            json.writeObjectField("sources", suite.sources());
            json.writeObjectField("fixtures", suite.fixtures());
            json.writeArrayFieldStart("cases");
            if (withCases) {
                for (Case evalCase : suite.cases()) {
                    json.writeObject(CaseDoc.of(evalCase));
                }
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new AssayException(Problem.of("json.write", e.getMessage()), e);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * {@return the suite a snapshot document describes}, its version as stored
     *
     * @throws AssayException {@code snapshot.invalid} when the document is not a suite snapshot
     */
    public static Suite fromJson(String json) {
        try {
            SuiteDoc doc = Json.MAPPER.readValue(json, SuiteDoc.class);
            if (doc == null || doc.name() == null || doc.cases() == null) {
                throw new IllegalArgumentException("a snapshot needs `name` and `cases`");
            }
            if (doc.formatVersion() > CASES_APART_FORMAT_VERSION) {
                throw new IllegalArgumentException(
                        "format_version " + doc.formatVersion() + " is newer than " + CASES_APART_FORMAT_VERSION);
            }
            return new Suite(
                    doc.name(),
                    doc.version(),
                    doc.cases().stream().map(CaseDoc::toCase).toList(),
                    doc.fixtures() == null ? Map.of() : doc.fixtures(),
                    orEmpty(doc.sources()));
        } catch (JsonProcessingException | RuntimeException e) {
            throw new AssayException(Problem.of("snapshot.invalid", "not a suite snapshot: " + e.getMessage()), e);
        }
    }

    /**
     * {@return the tags of the cases that have any, by case id, in the snapshot's order} ({@link Suite#caseTags}), read
     * from the document one case at a time: a report needs only these, and a large suite's cases are many times the
     * size of its text
     *
     * @throws AssayException {@code snapshot.invalid} when the document is not a suite snapshot
     */
    public static Map<String, List<String>> caseTags(String json) {
        var tags = new LinkedHashMap<String, List<String>>();
        try (JsonParser parser = Json.MAPPER.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("a snapshot is a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                if (!field.equals("cases") || parser.currentToken() != JsonToken.START_ARRAY) {
                    parser.skipChildren();
                    continue;
                }
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    JsonNode evalCase = parser.readValueAsTree();
                    var caseTags = new ArrayList<String>();
                    evalCase.path("tags").forEach(tag -> caseTags.add(tag.asText()));
                    if (!caseTags.isEmpty()) {
                        tags.put(evalCase.path("id").asText(), List.copyOf(caseTags));
                    }
                }
            }
            return tags;
        } catch (IOException | RuntimeException e) {
            throw new AssayException(Problem.of("snapshot.invalid", "not a suite snapshot: " + e.getMessage()), e);
        }
    }

    /**
     * {@return the content hash of cases and fixtures}: hex SHA-256 over their canonical JSON (keys sorted, where each
     * case was read from left out), so it is stable across runs and machines and changes whenever any case, check or
     * fixture changes. Hashed as it is written, one case at a time, so that a suite of any size is hashed in the memory
     * of one case.
     */
    public static String version(List<Case> cases, Map<String, String> fixtures) {
        var version = new SuiteVersion();
        cases.forEach(version::add);
        return version.finish(fixtures);
    }

    public static BigDecimal seconds(Duration duration) {
        BigDecimal seconds = BigDecimal.valueOf(duration.toNanos(), 9).stripTrailingZeros();
        return seconds.scale() < 0 ? seconds.setScale(0) : seconds;
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
