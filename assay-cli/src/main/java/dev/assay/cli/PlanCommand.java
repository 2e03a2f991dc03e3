package dev.assay.cli;

import dev.assay.Json;
import dev.assay.report.RunReport;
import dev.assay.score.SamplePlan;
import dev.assay.store.RunIds;
import dev.assay.store.Store;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code assay plan --baseline RUN --mde POINTS}: how many cases (and samples per case) a paired comparison needs to
 * detect a difference, from a baseline run's observed variance ({@link SamplePlan}, docs/statistics.md).
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = "How many cases (and samples per case) detect a difference of --mde points at the given power, "
                + "from a baseline run's observed variance.")
final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    DatabaseOption database;

    @Option(names = "--baseline", required = true, paramLabel = "<run-id>", description = "The baseline run.")
    String baseline;

    @Option(
            names = "--mde",
            required = true,
            paramLabel = "<points>",
            description = "The difference to detect, in " + "score points (0-100).")
    double mde;

    @Option(names = "--power", paramLabel = "<p>", defaultValue = "0.8", description = "Default: ${DEFAULT-VALUE}.")
    double power;

    @Option(
            names = "--alpha",
            paramLabel = "<a>",
            defaultValue = "0.05",
            description = "Two-sided; default: " + "${DEFAULT-VALUE}.")
    double alpha;

    @Option(names = "--format", paramLabel = "<format>", defaultValue = "text", description = "text or json.")
    OutputFormats.Text format;

    @Override
    public Integer call() {
        SamplePlan plan;
        try (Store store = database.open()) {
            RunReport report = RunReport.load(store, RunIds.resolve(store, baseline));
            List<List<Double>> cases = List.copyOf(report.caseScores().values());
            try {
                plan = SamplePlan.of(cases, mde, power, alpha);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format == OutputFormats.Text.json) {
            out.println(Json.write(plan));
            return ExitCodes.OK;
        }
        out.printf(
                "To detect %.1f points at %.0f%% power (two-sided alpha %.3g), from %d baseline cases "
                        + "(between-case variance %.4f, within-case %.4f):%n",
                mde, power * 100, alpha, plan.baselineCases(), plan.betweenVariance(), plan.withinVariance());
        out.printf("%8s %10s %10s%n", "samples", "cases", "calls");
        plan.options()
                .forEach(option -> out.printf("%8d %10d %10d%n", option.samples(), option.cases(), option.calls()));
        return ExitCodes.OK;
    }
}
