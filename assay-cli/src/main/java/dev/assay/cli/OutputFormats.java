package dev.assay.cli;

/**
 * The values of the {@code --format} options, as enums so that picocli refuses anything else as a usage error listing
 * the choices. The constants are the values users type: picocli lists them by name in that error.
 */
final class OutputFormats {
    private OutputFormats() {}

    /** {@code run}, {@code runs list|show|compare}: a table for people or JSON for scripts. */
    enum Table {
        table,
        json
    }

    /** {@code cases validate}: one line per problem, or one JSON document. */
    enum Text {
        text,
        json
    }
}
