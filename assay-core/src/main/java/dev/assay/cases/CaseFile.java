package dev.assay.cases;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.assay.Json;
import dev.assay.Yaml;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One case file read entry by entry: its file-level fields, with the raw case entries handed on as they are read, each
 * with the line it starts on. A JSON Lines file is read a line at a time and never held whole, so a suite of any size
 * is read in the memory of one case; a JSON or YAML document is parsed whole, and its entries handed on only once it
 * has parsed (its file-level {@code language} may follow its cases).
 *
 * @param file the file's name as shown in problems
 * @param caseSet the file-level {@code case_set}; empty when absent (always for JSONL)
 * @param language the file-level {@code language}, the default for its cases; empty when absent
 * @param problems the file-level problems
 * @param complete false when the file could not be read to its end (unreadable, not UTF-8, a document that does not
 *     parse): the entries it handed on must then be dropped, so that a half-read file never contributes a half suite
 */
record CaseFile(String file, String caseSet, String language, List<CaseProblem> problems, boolean complete) {
    /** The extensions read from directories, lower-case. */
    static final List<String> EXTENSIONS = List.of(".json", ".jsonl", ".yaml", ".yml");

    static final Pattern LANGUAGE = Pattern.compile("[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*");

    private static final char BYTE_ORDER_MARK = '\uFEFF';

    /**
     * A raw case entry.
     *
     * @param node the entry as written (normally an object)
     * @param line the 1-based line it starts on
     */
    record Entry(JsonNode node, int line) {}

    /** Where a file's entries go, each with the file's default language. */
    @FunctionalInterface
    interface Entries {
        void accept(Entry entry, String fileLanguage);
    }

    CaseFile {
        problems = List.copyOf(problems);
    }

    static boolean isCaseFile(Path path) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        return EXTENSIONS.stream().anyMatch(name::endsWith);
    }

    static CaseFile read(Path path, String file, Entries entries) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        try {
            if (name.endsWith(".jsonl")) {
                return readLines(path, file, entries);
            }
            String text = Files.readString(path, StandardCharsets.UTF_8);
            if (!text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK) {
                text = text.substring(1);
            }
            return readDocument(name.endsWith(".json") ? Json.MAPPER : Yaml.MAPPER, text, file, entries);
        } catch (java.nio.charset.CharacterCodingException e) {
            return failed(
                    file,
                    new CaseProblem(
                            "suite.unreadable",
                            new SourceRef(file, 0),
                            "",
                            "",
                            "the file is not valid UTF-8",
                            "a readable UTF-8 file"));
        } catch (IOException e) {
            return failed(
                    file,
                    new CaseProblem(
                            "suite.unreadable",
                            new SourceRef(file, 0),
                            "",
                            "",
                            "cannot read the file: " + e.getMessage(),
                            "a readable UTF-8 file"));
        }
    }

    /**
     * JSONL: each line stands alone, so one bad line costs only that case. Lines end at {@code \n}, a {@code \r} before
     * it is dropped; the decoder refuses malformed UTF-8 as {@link Files#readString} does.
     */
    private static CaseFile readLines(Path path, String file, Entries entries) throws IOException {
        var problems = new ArrayList<CaseProblem>();
        CharsetDecoder utf8 = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try (var reader = new InputStreamReader(Files.newInputStream(path), utf8)) {
            char[] buffer = new char[1 << 16];
            var text = new StringBuilder();
            int line = 1;
            int read;
            while ((read = reader.read(buffer)) != -1) {
                int start = 0;
                for (int at = 0; at < read; at++) {
                    if (buffer[at] == '\n') {
                        text.append(buffer, start, at - start);
                        readLine(text, file, line++, entries, problems);
                        text.setLength(0);
                        start = at + 1;
                    }
                }
                text.append(buffer, start, read - start);
            }
            readLine(text, file, line, entries, problems);
        }
        return new CaseFile(file, "", "", problems, true);
    }

    private static void readLine(
            StringBuilder text, String file, int line, Entries entries, List<CaseProblem> problems) {
        if (!text.isEmpty() && text.charAt(text.length() - 1) == '\r') {
            text.setLength(text.length() - 1);
        }
        if (line == 1 && !text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK) {
            text.deleteCharAt(0);
        }
        String json = text.toString();
        if (json.isBlank()) {
            return;
        }
        try (JsonParser parser = strict(Json.MAPPER.getFactory().createParser(json))) {
            JsonNode node = Json.MAPPER.readTree(parser);
            if (parser.nextToken() != null) {
                problems.add(parseError(file, line, "more than one JSON value on the line"));
                return;
            }
            entries.accept(new Entry(node, line), "");
        } catch (JsonProcessingException e) {
            problems.add(parseError(file, line, e.getOriginalMessage()));
        } catch (IOException e) {
            problems.add(parseError(file, line, e.getMessage()));
        }
    }

    private static CaseFile readDocument(ObjectMapper mapper, String text, String file, Entries entries)
            throws IOException {
        try (JsonParser parser = strict(mapper.getFactory().createParser(text))) {
            JsonToken first = parser.nextToken();
            if (first == JsonToken.START_ARRAY || first == JsonToken.START_OBJECT) {
                var read = new ArrayList<Entry>();
                CaseFile header = first == JsonToken.START_ARRAY
                        ? new CaseFile(file, "", "", List.of(), true)
                        : readObject(mapper, parser, file, read);
                if (first == JsonToken.START_ARRAY) {
                    readEntries(mapper, parser, read);
                }
                // YAML may hold further documents; JSON must end after its one value.
                if (mapper == Json.MAPPER && parser.nextToken() != null) {
                    return failed(file, parseError(file, lineOf(parser), "unexpected content after the cases"));
                }
                read.forEach(entry -> entries.accept(entry, header.language()));
                return header;
            }
            return failed(
                    file,
                    new CaseProblem(
                            "suite.invalid_file",
                            new SourceRef(file, lineOf(parser)),
                            "",
                            "",
                            first == null
                                    ? "the file is empty"
                                    : "the file holds neither a list of cases nor an object",
                            "a list of cases, or an object with `cases`"));
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            return failed(file, parseError(file, at == null ? 0 : at.getLineNr(), e.getOriginalMessage()));
        }
    }

    private static CaseFile readObject(ObjectMapper mapper, JsonParser parser, String file, List<Entry> entries)
            throws IOException {
        String caseSet = "";
        String language = "";
        boolean hasCases = false;
        var problems = new ArrayList<CaseProblem>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            var at = new SourceRef(file, lineOf(parser));
            switch (field) {
                case "cases" -> {
                    if (value == JsonToken.START_ARRAY) {
                        hasCases = true;
                        readEntries(mapper, parser, entries);
                    } else {
                        parser.skipChildren();
                        problems.add(new CaseProblem(
                                "case.invalid_field",
                                at,
                                "",
                                "cases",
                                "`cases` is not a list",
                                "a list of case objects"));
                    }
                }
                case "case_set" -> caseSet = fileText(mapper.readTree(parser), at, field, "a string", problems);
                case "language" -> {
                    language = fileText(mapper.readTree(parser), at, field, "a language tag like zh-CN", problems);
                    if (!language.isEmpty() && !LANGUAGE.matcher(language).matches()) {
                        problems.add(new CaseProblem(
                                "case.invalid_field",
                                at,
                                "",
                                field,
                                "'" + language + "' is not a language tag",
                                "a language tag like zh-CN or en-US"));
                        language = "";
                    }
                }
                case "version" -> {
                    JsonNode version = mapper.readTree(parser);
                    if (!version.canConvertToInt() || !version.isIntegralNumber() || version.intValue() < 0) {
                        problems.add(new CaseProblem(
                                "case.invalid_field",
                                at,
                                "",
                                field,
                                "`version` is not a whole number",
                                "an integer >= 0"));
                    }
                }
                default -> parser.skipChildren(); // other file-level fields are comments as far as Assay cares
            }
        }
        if (!hasCases) {
            problems.add(new CaseProblem(
                    "case.missing_field",
                    new SourceRef(file, 1),
                    "",
                    "cases",
                    "the file has no `cases`",
                    "an object with a `cases` list"));
        }
        return new CaseFile(file, caseSet, language, problems, true);
    }

    private static void readEntries(ObjectMapper mapper, JsonParser parser, List<Entry> entries) throws IOException {
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            int line = lineOf(parser);
            entries.add(new Entry(mapper.readTree(parser), line));
        }
    }

    private static String fileText(
            JsonNode value, SourceRef at, String field, String expected, List<CaseProblem> problems) {
        if (value.isTextual()) {
            return value.textValue().strip();
        }
        problems.add(new CaseProblem("case.invalid_field", at, "", field, "`" + field + "` is not a string", expected));
        return "";
    }

    /** Duplicate keys are refused: silently keeping the last one hides typos in hand-written files. */
    private static JsonParser strict(JsonParser parser) {
        return parser.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
    }

    private static int lineOf(JsonParser parser) {
        return Math.max(parser.currentTokenLocation().getLineNr(), 0);
    }

    private static CaseProblem parseError(String file, int line, String message) {
        return new CaseProblem(
                "case.parse_error",
                new SourceRef(file, Math.max(line, 0)),
                "",
                "",
                message,
                "well-formed JSON, JSONL or YAML");
    }

    private static CaseFile failed(String file, CaseProblem problem) {
        return new CaseFile(file, "", "", List.of(problem), false);
    }
}
