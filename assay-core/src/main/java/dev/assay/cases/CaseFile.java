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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One case file, parsed but not yet validated: its file-level fields and the raw case entries with the line each starts
 * on. A file that does not parse keeps no entries and one problem, so a half-read file never contributes a half suite.
 *
 * @param file the file's name as shown in problems
 * @param caseSet the file-level {@code case_set}; empty when absent (always for JSONL)
 * @param language the file-level {@code language}, the default for its cases; empty when absent
 * @param entries the case entries in file order
 * @param problems the file-level problems
 */
record CaseFile(String file, String caseSet, String language, List<Entry> entries, List<CaseProblem> problems) {
    /** The extensions read from directories, lower-case. */
    static final List<String> EXTENSIONS = List.of(".json", ".jsonl", ".yaml", ".yml");

    static final Pattern LANGUAGE = Pattern.compile("[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*");

    /**
     * A raw case entry.
     *
     * @param node the entry as written (normally an object)
     * @param line the 1-based line it starts on
     */
    record Entry(JsonNode node, int line) {}

    CaseFile {
        entries = List.copyOf(entries);
        problems = List.copyOf(problems);
    }

    static boolean isCaseFile(Path path) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        return EXTENSIONS.stream().anyMatch(name::endsWith);
    }

    static CaseFile read(Path path, String file) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        try {
            String text = Files.readString(path, StandardCharsets.UTF_8);
            if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
                text = text.substring(1);
            }
            if (name.endsWith(".jsonl")) {
                return readLines(text, file);
            }
            return readDocument(name.endsWith(".json") ? Json.MAPPER : Yaml.MAPPER, text, file);
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

    /** JSONL: each line stands alone, so one bad line costs only that case. */
    private static CaseFile readLines(String text, String file) {
        var entries = new ArrayList<Entry>();
        var problems = new ArrayList<CaseProblem>();
        String[] lines = text.split("\r?\n", -1);
        for (int index = 0; index < lines.length; index++) {
            if (lines[index].isBlank()) {
                continue;
            }
            int line = index + 1;
            try (JsonParser parser = strict(Json.MAPPER.getFactory().createParser(lines[index]))) {
                JsonNode node = Json.MAPPER.readTree(parser);
                if (parser.nextToken() != null) {
                    problems.add(parseError(file, line, "more than one JSON value on the line"));
                    continue;
                }
                entries.add(new Entry(node, line));
            } catch (JsonProcessingException e) {
                problems.add(parseError(file, line, e.getOriginalMessage()));
            } catch (IOException e) {
                problems.add(parseError(file, line, e.getMessage()));
            }
        }
        return new CaseFile(file, "", "", entries, problems);
    }

    private static CaseFile readDocument(ObjectMapper mapper, String text, String file) throws IOException {
        try (JsonParser parser = strict(mapper.getFactory().createParser(text))) {
            JsonToken first = parser.nextToken();
            if (first == JsonToken.START_ARRAY || first == JsonToken.START_OBJECT) {
                CaseFile read = first == JsonToken.START_ARRAY
                        ? new CaseFile(file, "", "", readEntries(mapper, parser), List.of())
                        : readObject(mapper, parser, file);
                // YAML may hold further documents; JSON must end after its one value.
                if (mapper == Json.MAPPER && parser.nextToken() != null) {
                    return failed(file, parseError(file, lineOf(parser), "unexpected content after the cases"));
                }
                return read;
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

    private static CaseFile readObject(ObjectMapper mapper, JsonParser parser, String file) throws IOException {
        String caseSet = "";
        String language = "";
        List<Entry> entries = null;
        var problems = new ArrayList<CaseProblem>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            var at = new SourceRef(file, lineOf(parser));
            switch (field) {
                case "cases" -> {
                    if (value == JsonToken.START_ARRAY) {
                        entries = readEntries(mapper, parser);
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
        if (entries == null) {
            problems.add(new CaseProblem(
                    "case.missing_field",
                    new SourceRef(file, 1),
                    "",
                    "cases",
                    "the file has no `cases`",
                    "an object with a `cases` list"));
            entries = List.of();
        }
        return new CaseFile(file, caseSet, language, entries, problems);
    }

    private static List<Entry> readEntries(ObjectMapper mapper, JsonParser parser) throws IOException {
        var entries = new ArrayList<Entry>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            int line = lineOf(parser);
            entries.add(new Entry(mapper.readTree(parser), line));
        }
        return entries;
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
        return new CaseFile(file, "", "", List.of(), List.of(problem));
    }
}
