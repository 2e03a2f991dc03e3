package dev.assay.cases.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.Yaml;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.SourceRef;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * @param complete false when the file could not be read to its end (an I/O error, a document that is not UTF-8 or does
 *     not parse): the entries it handed on must then be dropped, so that a half-read file never contributes a half
 *     suite. A JSONL line that is not UTF-8 costs only that line, as one that does not parse
 */
public record CaseFile(String file, String caseSet, String language, List<CaseProblem> problems, boolean complete) {
    /** The extensions read from directories, lower-case. */
    static final List<String> EXTENSIONS = List.of(".json", ".jsonl", ".yaml", ".yml");

    static final Pattern LANGUAGE = Pattern.compile("[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*");

    private static final char BYTE_ORDER_MARK = '\uFEFF';

    /**
     * A raw case entry.
     *
     * @param node the entry as written (normally an object)
     * @param line the 1-based line it starts on
     * @param fieldLines the 1-based line of each of an object's own fields, where it differs from {@code line} (a JSON
     *     or YAML document); empty for a JSONL line
     */
    public record Entry(JsonNode node, int line, Map<String, Integer> fieldLines) {
        public Entry {
            fieldLines = Map.copyOf(fieldLines);
        }

        public Entry(JsonNode node, int line) {
            this(node, line, Map.of());
        }

        /** {@return the line of the field a problem names ({@code checks[1].expected} is on the line of checks)} */
        int lineOf(String field) {
            int end = field.length();
            for (char separator : new char[] {'.', '['}) {
                int at = field.indexOf(separator);
                end = at >= 0 ? Math.min(end, at) : end;
            }
            return fieldLines.getOrDefault(field.substring(0, end), line);
        }
    }

    /** Where a file's entries go, each with the file's default language. */
    @FunctionalInterface
    public interface Entries {
        void accept(Entry entry, String fileLanguage);
    }

    public CaseFile {
        problems = List.copyOf(problems);
    }

    public static boolean isCaseFile(Path path) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        return EXTENSIONS.stream().anyMatch(name::endsWith);
    }

    public static CaseFile read(Path path, String file, Entries entries) {
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
        } catch (CharacterCodingException e) {
            return failed(file, documentNotUtf8(path, file));
        } catch (IOException e) {
            return failed(file, unreadable(file, e));
        }
    }

    /**
     * Where a document stopped being UTF-8: {@link Files#readString} does not say, so the file is read again a line at
     * a time, as JSONL is; only a file that does not decode pays for the second read.
     */
    private static CaseProblem documentNotUtf8(Path path, String file) {
        var first = new ArrayList<CaseProblem>(1);
        try {
            eachLine(path, (line, decoded) -> {
                if (first.isEmpty() && decoded instanceof NotUtf8 bad) {
                    first.add(unreadable(file, line, "the file is not valid UTF-8: " + bad.describe()));
                }
            });
        } catch (IOException e) {
            return unreadable(file, e);
        }
        // Nothing found: the file changed between the two reads, and there is no line to name.
        return first.isEmpty() ? unreadable(file, 0, "the file is not valid UTF-8") : first.getFirst();
    }

    private static CaseProblem unreadable(String file, IOException e) {
        return unreadable(file, 0, "cannot read the file: " + e.getMessage());
    }

    private static CaseProblem unreadable(String file, int line, String message) {
        return new CaseProblem("suite.unreadable", new SourceRef(file, line), "", "", message, "a readable UTF-8 file");
    }

    /**
     * JSONL: each line stands alone, so one bad line, whether it does not parse or is not UTF-8, costs only that case.
     */
    private static CaseFile readLines(Path path, String file, Entries entries) throws IOException {
        var problems = new ArrayList<CaseProblem>();
        boolean[] anyLine = {false};
        eachLine(path, (line, decoded) -> {
            anyLine[0] |= !(decoded instanceof Text text) || !text.text().isBlank();
            switch (decoded) {
                case Text text -> readLine(text.text(), file, line, entries, problems);
                case NotUtf8 bad ->
                    problems.add(new CaseProblem(
                            "case.parse_error",
                            new SourceRef(file, line),
                            "",
                            "",
                            "the line is not valid UTF-8: " + bad.describe(),
                            "a line of UTF-8 text"));
            }
        });
        if (!anyLine[0]) {
            // As an empty JSON or YAML file is: a file given as a suite that holds nothing is a mistake to say.
            problems.add(new CaseProblem(
                    "suite.invalid_file", new SourceRef(file, 0), "", "", "the file is empty", "one case per line"));
        }
        return new CaseFile(file, "", "", problems, true);
    }

    private static void readLine(String json, String file, int line, Entries entries, List<CaseProblem> problems) {
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
            problems.add(parseError(file, line, reason(e)));
        } catch (IOException e) {
            problems.add(parseError(file, line, e.getMessage()));
        }
    }

    /** A line as decoded: its text, or where its bytes stopped being UTF-8. */
    sealed interface Decoded permits Text, NotUtf8 {}

    record Text(String text) implements Decoded {}

    /**
     * @param column the 1-based column of the first bad byte, counted in the characters before it
     * @param value the bad byte
     */
    record NotUtf8(int column, int value) implements Decoded {
        String describe() {
            return "byte 0x%02X at column %d".formatted(value, column);
        }
    }

    /** Receives each line of a file with its 1-based number. */
    @FunctionalInterface
    interface LineVisitor {
        void visit(int line, Decoded decoded);
    }

    /**
     * Reads a file a line at a time, holding one line. Lines end at {@code \n}, a {@code \r} before it is dropped, and
     * so is a byte-order mark opening the file. Each line is decoded on its own: {@code \n} is never part of a
     * multi-byte UTF-8 sequence, so a bad byte is confined to its line, and the file is UTF-8 exactly when each line
     * is.
     */
    static void eachLine(Path path, LineVisitor visitor) throws IOException {
        var bytes = new LineBytes();
        try (InputStream in = Files.newInputStream(path)) {
            byte[] buffer = new byte[1 << 16];
            int line = 1;
            int read;
            while ((read = in.read(buffer)) != -1) {
                int start = 0;
                for (int at = 0; at < read; at++) {
                    if (buffer[at] == '\n') {
                        bytes.append(buffer, start, at - start);
                        visitor.visit(line, bytes.decode(line == 1));
                        line++;
                        start = at + 1;
                    }
                }
                bytes.append(buffer, start, read - start);
            }
            visitor.visit(line, bytes.decode(line == 1));
        }
    }

    /** The bytes of the line being read, and the decoder and characters reused from line to line. */
    private static final class LineBytes {
        private final CharsetDecoder utf8 = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        private byte[] bytes = new byte[1 << 12];
        private int length;
        private CharBuffer chars = CharBuffer.allocate(1 << 12);

        void append(byte[] from, int start, int count) {
            if (length + count > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, length + count));
            }
            System.arraycopy(from, start, bytes, length, count);
            length += count;
        }

        /** {@return the line read so far, decoded}, and starts the next line */
        Decoded decode(boolean first) {
            if (length > 0 && bytes[length - 1] == '\r') {
                length--;
            }
            // UTF-8 gives at most one character per byte, so the characters never overflow.
            if (chars.capacity() < length) {
                chars = CharBuffer.allocate(Math.max(2 * chars.capacity(), length));
            }
            chars.clear();
            ByteBuffer in = ByteBuffer.wrap(bytes, 0, length);
            utf8.reset();
            CoderResult result = utf8.decode(in, chars, true);
            if (result.isUnderflow()) {
                result = utf8.flush(chars);
            }
            length = 0;
            int decoded = chars.position();
            boolean byteOrderMark = first && decoded > 0 && chars.get(0) == BYTE_ORDER_MARK;
            if (result.isError()) {
                // The decoder stops at the start of the bad sequence, after the characters before it.
                return new NotUtf8(decoded + 1 - (byteOrderMark ? 1 : 0), in.get(in.position()) & 0xFF);
            }
            chars.flip();
            chars.position(byteOrderMark ? 1 : 0);
            return new Text(chars.toString());
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
            return failed(file, parseError(file, at == null ? 0 : at.getLineNr(), reason(e)));
        }
    }

    private static CaseFile readObject(ObjectMapper mapper, JsonParser parser, String file, List<Entry> entries)
            throws IOException {
        String caseSet = "";
        String language = "";
        JsonNode sandbox = null;
        boolean hasCases = false;
        ObjectNode defaults = null;
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
                case "defaults" -> {
                    JsonNode read = mapper.readTree(parser);
                    if (read.isObject() && !read.has("id")) {
                        defaults = (ObjectNode) read;
                    } else {
                        problems.add(new CaseProblem(
                                "case.invalid_field",
                                at,
                                "",
                                field,
                                read.isObject() ? "`defaults` gives an `id`" : "`defaults` is not an object",
                                "an object of case fields (no `id`) that each case lacking one takes"));
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
                                "`version` is " + version + ", not a whole number of 0 or more",
                                "an integer >= 0"));
                    }
                }
                case "sandbox" -> sandbox = mapper.readTree(parser);
                default -> parser.skipChildren(); // other file-level fields are comments as far as Assay cares
            }
        }
        if (sandbox != null) {
            // The suite's container is every case's that names none of its own.
            for (Entry entry : entries) {
                if (entry.node() instanceof ObjectNode object && !object.has("sandbox")) {
                    object.set("sandbox", sandbox.deepCopy());
                }
            }
        }
        if (defaults != null) {
            ObjectNode given = defaults;
            entries.replaceAll(entry -> withDefaults(entry, given));
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

    /**
     * {@return the entry with each field of the file's {@code defaults} that it lacks}: a domain's hundred tasks name
     * their environment and policy once. A field the entry gives wins whole (objects are not merged).
     */
    private static Entry withDefaults(Entry entry, ObjectNode defaults) {
        if (!(entry.node() instanceof ObjectNode node)) {
            return entry;
        }
        ObjectNode filled = node.deepCopy();
        defaults.properties().forEach(field -> {
            if (!filled.has(field.getKey())) {
                filled.set(field.getKey(), field.getValue().deepCopy());
            }
        });
        return new Entry(filled, entry.line(), entry.fieldLines());
    }

    private static void readEntries(ObjectMapper mapper, JsonParser parser, List<Entry> entries) throws IOException {
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            entries.add(readEntry(mapper, parser));
        }
    }

    /** One entry, an object's fields read one by one so that a problem can name the line of its field. */
    private static Entry readEntry(ObjectMapper mapper, JsonParser parser) throws IOException {
        int line = lineOf(parser);
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            return new Entry(mapper.readTree(parser), line);
        }
        ObjectNode node = mapper.createObjectNode();
        var fieldLines = new HashMap<String, Integer>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            fieldLines.put(field, lineOf(parser));
            parser.nextToken();
            node.set(field, mapper.readTree(parser));
        }
        return new Entry(node, line, fieldLines);
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
    static JsonParser strict(JsonParser parser) {
        return parser.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
    }

    private static int lineOf(JsonParser parser) {
        return Math.max(parser.currentTokenLocation().getLineNr(), 0);
    }

    /**
     * {@return why the text did not parse}: the parser's words, less the Jackson method its limits' messages name (the
     * length they give is where the parser stopped counting, not the value's)
     */
    public static String reason(JsonProcessingException e) {
        if (e instanceof StreamConstraintsException) {
            return "too large for the parser: " + e.getOriginalMessage().replaceAll(", from `[^`]*`", "");
        }
        return e.getOriginalMessage();
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
