package dev.assay.cases;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One row of a dataset file, as its format read it. Not copied: a format hands each row on once.
 *
 * @param number the 1-based number of the row among the file's rows (a CSV header is not a row)
 * @param line the 1-based line the row starts on; 0 for a format without lines (Parquet)
 * @param fields the row's fields by name: strings for CSV and TSV, JSON values for JSON formats, the columns' values
 *     for Parquet
 */
public record DatasetRow(long number, long line, ObjectNode fields) {
    public DatasetRow {
        Objects.requireNonNull(fields, "fields");
        if (number < 1 || line < 0) {
            throw new IllegalArgumentException("a row's number is >= 1 and its line >= 0, got " + number + ", " + line);
        }
    }
}
