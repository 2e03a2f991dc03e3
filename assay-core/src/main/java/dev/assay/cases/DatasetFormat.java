package dev.assay.cases;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A file format datasets come in (docs/datasets.md), found by the file's extension among Assay's own (JSON Lines, JSON
 * arrays, CSV, TSV) and the plug-ins on the class path ({@code META-INF/services/dev.assay.cases.DatasetFormat}; the
 * assay-parquet module brings Parquet). A format reads a file row by row and hands each row on as it is read, never the
 * whole file at once, so a dataset of any size is read in the memory of one row. Implementations are thread-safe
 * (stateless).
 */
public interface DatasetFormat {
    /** {@return the format's name, as listed in messages: {@code jsonl}, {@code csv}, {@code parquet}} */
    String name();

    /** {@return the file extensions this format reads, lower case with their dot: {@code .csv}} */
    List<String> extensions();

    /**
     * Reads the file's rows in order, handing each on as it is read.
     *
     * @param file the file
     * @param rows receives each row, and each row that cannot be read with its reason (the other rows go on)
     * @throws IOException when the file cannot be read to its end (it does not open, or its structure breaks so that no
     *     further row can be found); the rows handed on before are then dropped, as a half-read case file gives nothing
     */
    void read(Path file, Rows rows) throws IOException;

    /** Where a format hands the rows of a file. */
    interface Rows {
        /** Receives a row that was read. */
        void row(DatasetRow row);

        /**
         * Receives a row that could not be read (a JSON line that does not parse, a CSV record with too many fields).
         *
         * @param number the row's 1-based number in the file
         * @param line its 1-based line; 0 for a format without lines
         * @param message why, one sentence
         */
        void unreadable(long number, long line, String message);
    }
}
