package dev.assay.cases;

import dev.assay.AssayException;
import dev.assay.Plugins;
import dev.assay.Problem;
import dev.assay.cases.internal.CaseFile;
import dev.assay.cases.internal.DelimitedDataset;
import dev.assay.cases.internal.JsonArrayDataset;
import dev.assay.cases.internal.JsonLinesDataset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The dataset formats by file extension: Assay's own, then the plug-ins on the class path, a later one replacing an
 * earlier one of the same name. Extensions whose format lives in a module of its own are known here too, so a file of
 * that kind without the module gives a problem naming the module rather than an unknown format. Thread-safe.
 */
public final class DatasetFormats {
    /** Formats read by a module of their own, by extension: the module to put on the class path. */
    static final Map<String, String> MODULES = Map.of(".parquet", "assay-parquet");

    private static final Plugins<DatasetFormat> FORMATS = Plugins.load(
            DatasetFormat.class,
            "dataset format",
            DatasetFormat::name,
            List.of(new JsonLinesDataset(), new JsonArrayDataset(), DelimitedDataset.CSV, DelimitedDataset.TSV));

    private DatasetFormats() {}

    /** {@return whether the file's extension is one datasets come in, with its module present or not} */
    public static boolean isDatasetFile(Path file) {
        String extension = extension(file);
        return MODULES.containsKey(extension) || find(extension) != null;
    }

    /** {@return whether the file is of a kind only datasets come in (not a case file's JSON, JSONL or YAML)} */
    static boolean isDatasetOnly(Path file) {
        return isDatasetFile(file) && !CaseFile.isCaseFile(file);
    }

    /**
     * {@return the format that reads the file, by its extension}
     *
     * @throws AssayException {@code dataset.missing_module} naming the module for a format in a module not on the class
     *     path, {@code dataset.unknown_format} listing the extensions read
     */
    static DatasetFormat of(Path file) {
        String extension = extension(file);
        DatasetFormat format = find(extension);
        if (format != null) {
            return format;
        }
        String module = MODULES.get(extension);
        if (module != null) {
            throw new AssayException(Problem.of(
                            "dataset.missing_module",
                            "reading " + extension + " files needs the " + module
                                    + " module on the class path (the distribution's lib/ has it)")
                    .withDetail("module", module));
        }
        throw new AssayException(Problem.of(
                "dataset.unknown_format",
                "no dataset format reads '" + extension + "' files; known: " + String.join(", ", extensions())));
    }

    /** {@return every extension read, those of missing modules included, in alphabetical order} */
    static List<String> extensions() {
        var all = new TreeSet<String>(MODULES.keySet());
        FORMATS.all().forEach(format -> all.addAll(format.extensions()));
        return new ArrayList<>(all);
    }

    private static DatasetFormat find(String extension) {
        DatasetFormat found = null;
        for (DatasetFormat format : FORMATS.all()) {
            if (format.extensions().contains(extension)) {
                found = format;
            }
        }
        return found;
    }

    private static String extension(Path file) {
        Path name = file.getFileName();
        String text = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        int dot = text.lastIndexOf('.');
        return dot < 0 ? "" : text.substring(dot);
    }
}
