package dev.assay.cases.internal;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.DatasetFormat;
import dev.assay.cases.DatasetRow;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A JSON array of objects ({@code .json}), parsed as a stream: each element is read and handed on before the next, so
 * the array is never held whole. An element that is not an object costs its row; a syntax error ends the file, since no
 * further element can be found after it. Thread-safe (stateless).
 */
public final class JsonArrayDataset implements DatasetFormat {
    @Override
    public String name() {
        return "json";
    }

    @Override
    public List<String> extensions() {
        return List.of(".json");
    }

    @Override
    public void read(Path file, Rows rows) throws IOException {
        try (InputStream in = Files.newInputStream(file);
                JsonParser parser = CaseFile.strict(Json.MAPPER.getFactory().createParser(in))) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new JsonParseException(parser, "a dataset in JSON is an array of objects, one per row");
            }
            long number = 0;
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                if (token == null) {
                    throw new JsonParseException(parser, "the file ends inside the array");
                }
                number++;
                long line = Math.max(parser.currentTokenLocation().getLineNr(), 1);
                JsonNode node = Json.MAPPER.readTree(parser);
                if (node instanceof ObjectNode object) {
                    rows.row(new DatasetRow(number, line, object));
                } else {
                    rows.unreadable(number, line, "the element is not a JSON object");
                }
            }
            if (parser.nextToken() != null) {
                throw new JsonParseException(parser, "unexpected content after the array");
            }
        }
    }
}
