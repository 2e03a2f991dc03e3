package dev.assay.cli;

import dev.assay.Json;
import dev.assay.report.Calibration;
import dev.assay.score.Agreement;
import dev.assay.store.RunIds;
import dev.assay.store.Store;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code assay judges calibrate RUN...}: how well each judge model agrees with the people who labelled its checks. */
@Command(
        name = "judges",
        mixinStandardHelpOptions = true,
        description = "The judge models, checked against people's labels.",
        subcommands = {JudgesCommand.Calibrate.class})
final class JudgesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }

    @Command(
            name = "calibrate",
            mixinStandardHelpOptions = true,
            description = "Per judge model, its agreement with the labels of these runs (assay review, the page): "
                    + "accuracy with its 95 %% Wilson interval, Cohen's kappa with its 95 %% interval (Cohen's "
                    + "large-sample standard error) and the confusion matrix.")
    static final class Calibrate implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        DatabaseOption database;

        @Parameters(arity = "1..*", paramLabel = "RUN", description = "Runs whose labels count (ids or prefixes).")
        List<String> runs;

        @Option(names = "--format", paramLabel = "<format>", defaultValue = "text", description = "text or json.")
        OutputFormats.Text format;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Calibration calibration;
            try (Store store = database.open()) {
                List<String> ids =
                        runs.stream().map(given -> RunIds.resolve(store, given)).toList();
                calibration = Calibration.of(store, ids);
            }
            if (format == OutputFormats.Text.json) {
                out.println(Json.write(calibration.toJson()));
                return ExitCodes.OK;
            }
            if (calibration.byJudgeModel().isEmpty()) {
                out.printf(
                        "no labelled judge check in these runs (%d label(s)); label some with `assay review RUN`%n",
                        calibration.labels());
                return ExitCodes.OK;
            }
            out.println("judge model: n, accuracy [95 % Wilson], kappa [95 %, Cohen's SE]; judge pass/fail × "
                    + "people pass/fail");
            calibration.byJudgeModel().forEach((model, agreement) -> out.println(line(model, agreement)));
            return ExitCodes.OK;
        }

        private static String line(String model, Agreement agreement) {
            double[] accuracy = agreement.accuracyInterval();
            double[] kappa = agreement.kappaInterval();
            return String.format(
                    Locale.ROOT,
                    "%s: n=%d, accuracy %.3f [%.3f, %.3f], kappa %s; pass/pass %d, pass/fail %d, fail/pass %d, "
                            + "fail/fail %d",
                    TerminalText.line(model),
                    agreement.n(),
                    agreement.accuracy(),
                    accuracy[0],
                    accuracy[1],
                    Double.isNaN(agreement.kappa())
                            ? "undefined (one verdict only)"
                            : String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", agreement.kappa(), kappa[0], kappa[1]),
                    agreement.judgePassHumanPass(),
                    agreement.judgePassHumanFail(),
                    agreement.judgeFailHumanPass(),
                    agreement.judgeFailHumanFail());
        }
    }
}
