package dev.assay.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of {@code assay run} that say where and how a run is reported: the report files ({@code --out}), the
 * summary's format ({@code --format}), the threshold of the exit code ({@code --threshold}), progress on stderr
 * ({@code --quiet}, {@code --verbose}) and traces ({@code --otel}). A continued run takes them too.
 */
final class RunOutputOptions {
    @Option(
            names = {"-o", "--out"},
            paramLabel = "<dir>",
            description = "Write report.json, report.md, junit.xml and report.html here.")
    Path out;

    @Option(
            names = "--threshold",
            paramLabel = "<score>",
            converter = OptionValues.Fraction.class,
            description = "Exit with code 1 when the total score (0..1) is below this.")
    Double threshold;

    @Option(
            names = "--otel",
            description =
                    "Export the run as OpenTelemetry traces (a span per run, case, model call and tool call) over "
                            + "OTLP, configured by the OTEL_* variables (default endpoint http://localhost:4318); on without "
                            + "it when OTEL_EXPORTER_OTLP_ENDPOINT is set. See docs/otel.md.")
    boolean otel;

    @Option(
            names = "--format",
            paramLabel = "<format>",
            defaultValue = "table",
            description = "Summary on stdout: table or json (default: ${DEFAULT-VALUE}).")
    OutputFormats.Table format;

    @Option(
            names = {"-q", "--quiet"},
            description = "No progress on stderr (the summary still goes to stdout).")
    boolean quiet;

    @Option(
            names = {"-v", "--verbose"},
            description = "A progress line per finished case (default: a progress bar "
                    + "on a terminal, a line every 10 s otherwise).")
    boolean verbose;
}
