package dev.assay.cases.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.DatasetFormat;
import dev.assay.cases.DatasetRow;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * JSON Lines ({@code .jsonl}): a JSON object per line, read a line at a time as case files are, so a line that does not
 * parse or is not UTF-8 costs only its row. Blank lines are not rows. Thread-safe (stateless).
 */
public final class JsonLinesDataset implements DatasetFormat {
    @Override
    public String name() {
        return "jsonl";
    }

    @Override
    public List<String> extensions() {
        return List.of(".jsonl");
    }

    @Override
    public void read(Path file, Rows rows) throws IOException {
        long[] number = {0};
        CaseFile.eachLine(file, (line, decoded) -> {
            switch (decoded) {
                case CaseFile.Text text -> {
                    if (!text.text().isBlank()) {
                        number[0]++;
                        row(text.text(), number[0], line, rows);
                    }
                }
                case CaseFile.NotUtf8 bad -> {
                    number[0]++;
                    rows.unreadable(number[0], line, "the line is not valid UTF-8: " + bad.describe());
                }
            }
        });
    }

    private static void row(String json, long number, int line, Rows rows) {
        try (JsonParser parser = CaseFile.strict(Json.MAPPER.getFactory().createParser(json))) {
            JsonNode node = Json.MAPPER.readTree(parser);
            if (parser.nextToken() != null) {
                rows.unreadable(number, line, "more than one JSON value on the line");
            } else if (node instanceof ObjectNode object) {
                rows.row(new DatasetRow(number, line, object));
            } else {
                rows.unreadable(number, line, "the line is not a JSON object");
            }
        } catch (JsonProcessingException e) {
            rows.unreadable(number, line, "the line is not JSON: " + CaseFile.reason(e));
        } catch (IOException e) {
            rows.unreadable(number, line, String.valueOf(e.getMessage()));
        }
    }
}
