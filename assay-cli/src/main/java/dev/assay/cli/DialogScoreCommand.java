package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.dialog.Dataset;
import dev.assay.dialog.ExplainabilityJudge;
import dev.assay.dialog.JudgeScores;
import dev.assay.dialog.Scoring;
import dev.assay.dialog.TraceFile;
import dev.assay.run.ScoreOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code dialog score}: metrics from recorded traces, without calling anything. */
@Command(
        name = "score",
        mixinStandardHelpOptions = true,
        description =
                "Compute the metrics of recorded dialog traces and write turn_eval.jsonl, metrics_summary.json and report.md.")
final class DialogScoreCommand implements Callable<Integer>, EnvironmentFactory.NeedsEnvironment {
    @Spec
    CommandSpec spec;

    @ParentCommand
    DialogCommand parent;

    private Map<String, String> env = Map.of();

    @Option(names = "--traces", required = true, paramLabel = "FILE", description = "The dialog_trace.jsonl to score.")
    Path traces;

    @Option(
            names = "--dataset",
            paramLabel = "FILE",
            description = "Dataset whose ground truth replaces the one embedded in the traces (joined on dialog_id).")
    Path dataset;

    @Option(
            names = {"-o", "--out"},
            paramLabel = "DIR",
            description = "Where to write the files; default: the traces file's directory.")
    Path outDir;

    @Option(names = "--run-id", paramLabel = "ID", description = "Run id for the outputs; default: the traces' own.")
    String runId;

    @Mixin
    DialogScoringOptions scoring = new DialogScoringOptions();

    @Mixin
    JudgeOptionsMixin judgeOptions = new JudgeOptionsMixin();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            Path dir = outDir != null
                    ? outDir
                    : Optional.ofNullable(traces.toAbsolutePath().getParent()).orElse(Path.of("."));
            OutputDirectories.requireWritable(spec.commandLine(), "--out", dir);
            ScoreOptions options = scoring.toOptions();
            Optional<ExplainabilityJudge> judge = judgeOptions.judge(parent.models, AssayHome.of(env));
            TraceFile.Contents contents = TraceFile.read(traces);
            requireSomeTrace(contents);
            contents.problems()
                    .forEach(problem -> err.println("warning: " + problem.type() + " line "
                            + problem.details().get("line") + ": " + TerminalText.line(problem.message())));
            Optional<Dataset> joined = Optional.ofNullable(dataset).map(Dataset::load);
            String datasetPath = dataset != null ? dataset.toString() : "";
            Scoring.Result result = Scoring.score(contents.traces(), joined, runId, datasetPath, options, judge);
            Scoring.write(dir, result);
            DialogPrinter.printSummary(out, result);
            out.println("written: " + dir.resolve(Scoring.SUMMARY_FILE));
            if (result.judge().isPresent()) {
                out.println("written: " + dir.resolve(JudgeScores.SUMMARY_FILE));
            }
            return ExitCodes.OK;
        } catch (IOException e) {
            throw new AssayException(Problem.of("dialog.output_unwritable", e.toString()), e);
        }
    }

    @Override
    public void environment(Map<String, String> environment) {
        this.env = environment;
    }

    /**
     * A file without a single trace is not a trace file (a dataset, a report, the wrong path): scoring it would
     * "succeed" with no dialog.
     */
    private void requireSomeTrace(TraceFile.Contents contents) {
        if (!contents.traces().isEmpty()) {
            return;
        }
        Problem first =
                contents.problems().isEmpty() ? null : contents.problems().getFirst();
        String where = first == null
                ? traces.toString()
                : traces + ":" + first.details().get("line");
        String why = first == null ? "the file is empty" : first.message();
        Problem problem = Problem.of(
                        "dialog.trace_unreadable",
                        where + ": no dialog trace in the file (" + why
                                + "); --traces takes the dialog_trace.jsonl of a dialog run")
                .withDetail("path", traces.toString());
        throw new AssayException(
                first == null
                        ? problem
                        : problem.withDetail("line", first.details().get("line")));
    }
}
