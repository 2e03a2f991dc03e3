package dev.assay.cases;

/**
 * Where a case or a problem was found, so every message can name it.
 *
 * @param file the file as the user named it (or a relative path below a suite directory)
 * @param line the 1-based line (JSONL line, or the line a YAML/JSON element starts on); 0 when unknown
 */
public record SourceRef(String file, int line) {
    public static final SourceRef UNKNOWN = new SourceRef("", 0);

    @Override
    public String toString() {
        return line > 0 ? file + ":" + line : file;
    }
}
