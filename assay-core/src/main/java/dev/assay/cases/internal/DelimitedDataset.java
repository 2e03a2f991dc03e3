package dev.assay.cases.internal;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.assay.Json;
import dev.assay.cases.DatasetFormat;
import dev.assay.cases.DatasetRow;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * CSV ({@code .csv}, RFC 4180: quoted fields may hold the separator, quotes and line breaks) and TSV ({@code .tsv}, tab
 * separated, no quoting), read by Jackson's CSV parser a record at a time. The first record names the fields; every
 * value is a string. A record with another number of values than the header costs its row; a broken quote ends the
 * file. Thread-safe (stateless).
 *
 * @param name {@code csv} or {@code tsv}
 * @param extension the file extension
 * @param schema the separator and quoting
 */
public record DelimitedDataset(String name, String extension, CsvSchema schema) implements DatasetFormat {
    public static final DelimitedDataset CSV =
            new DelimitedDataset("csv", ".csv", CsvSchema.emptySchema().withColumnSeparator(','));
    public static final DelimitedDataset TSV = new DelimitedDataset(
            "tsv", ".tsv", CsvSchema.emptySchema().withColumnSeparator('\t').withoutQuoteChar());

    private static final CsvMapper MAPPER = CsvMapper.builder()
            .enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
            .build();

    @Override
    public List<String> extensions() {
        return List.of(extension);
    }

    @Override
    public void read(Path file, Rows rows) throws IOException {
        try (InputStream in = Files.newInputStream(file);
                CsvParser parser = MAPPER.getFactory().createParser(in)) {
            parser.setSchema(schema);
            List<String> header = null;
            long number = 0;
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                return;
            }
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token != JsonToken.START_ARRAY) {
                    continue;
                }
                // Jackson's CSV parser counts lines from 0, line breaks inside quoted values included.
                long line = Math.max(parser.currentTokenLocation().getLineNr(), 0) + 1L;
                List<String> values = record(parser);
                if (header == null) {
                    header = header(values, parser);
                    continue;
                }
                number++;
                if (values.size() != header.size()) {
                    rows.unreadable(
                            number,
                            line,
                            "the record has " + values.size() + " value(s), the header names " + header.size()
                                    + " field(s)");
                    continue;
                }
                ObjectNode fields = Json.object();
                for (int i = 0; i < values.size(); i++) {
                    fields.put(header.get(i), values.get(i));
                }
                rows.row(new DatasetRow(number, line, fields));
            }
        }
    }

    /** {@return the values of the record whose start the parser is on}, leaving it on the record's end */
    private static List<String> record(CsvParser parser) throws IOException {
        var values = new ArrayList<String>();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (token == null) {
                throw new com.fasterxml.jackson.core.JsonParseException(parser, "the file ends inside a record");
            }
            values.add(parser.getText());
        }
        return values;
    }

    private static List<String> header(List<String> names, CsvParser parser) throws IOException {
        var seen = new HashSet<String>();
        for (String name : names) {
            if (name.isBlank() || !seen.add(name)) {
                throw new com.fasterxml.jackson.core.JsonParseException(
                        parser,
                        "the header's field names must be non-empty and distinct; '" + name + "' is "
                                + (name.isBlank() ? "empty" : "repeated"));
            }
        }
        return names;
    }
}
