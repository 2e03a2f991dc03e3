package dev.assay.cli;

import dev.assay.Json;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.SuiteLoad;
import dev.assay.cases.SuiteLoader;
import dev.assay.check.CheckerRegistry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code assay cases validate}: checks case files without running anything. */
@Command(
        name = "cases",
        mixinStandardHelpOptions = true,
        description = "Work with case files.",
        subcommands = {CasesCommand.Validate.class})
final class CasesCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }

    @Command(
            name = "validate",
            mixinStandardHelpOptions = true,
            description = "Validate case files: report every problem with file, line and field.")
    static final class Validate implements Callable<Integer> {
        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Parameters(arity = "1..*", paramLabel = "<path>", description = "Case files or directories.")
        List<Path> paths;

        @Option(names = "--format", paramLabel = "<format>", defaultValue = "text", description = "text or json.")
        OutputFormats.Text format;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            SuiteLoad load = new SuiteLoader(CheckerRegistry.builtins()).load(paths);
            if (format == OutputFormats.Text.json) {
                out.println(Json.write(Map.of(
                        "valid", load.isValid(),
                        "case_set", load.suite().name(),
                        "version", load.suite().version(),
                        "valid_cases", load.suite().cases().size(),
                        "problems",
                                load.problems().stream()
                                        .map(CaseProblem::toProblem)
                                        .toList())));
            } else {
                load.problems().forEach(problem -> out.println(TerminalText.line(problem.toString())));
                out.printf(
                        "%s: %d valid cases %s, %d problem(s); version %s%n",
                        load.suite().name(),
                        load.suite().cases().size(),
                        load.suite().breakdown().casesByDimension(),
                        load.problems().size(),
                        load.suite().version());
            }
            return load.isValid() ? ExitCodes.OK : ExitCodes.USAGE;
        }
    }
}
