package dev.assay.promptfoo;

import dev.assay.AssayException;
import dev.assay.cases.Case;
import dev.assay.cases.CaseProblem;
import dev.assay.cases.CheckValidator;
import dev.assay.cases.SourceRef;
import dev.assay.cases.Suite;
import dev.assay.cases.SuiteFormat;
import dev.assay.cases.SuiteLoad;
import dev.assay.cases.SuiteSnapshots;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * promptfoo's config as a suite: {@code assay run promptfooconfig.yaml} (or a directory holding one) reads the config's
 * cases ({@link PromptfooCases}) and runs them against its providers ({@link PromptfooSubjects}). A service of
 * assay-promptfoo. Thread-safe (stateless).
 */
public final class PromptfooFormat implements SuiteFormat {
    @Override
    public String name() {
        return "promptfoo";
    }

    @Override
    public boolean reads(Path path) {
        Path file = PromptfooConfig.configFile(path);
        return file != null && PromptfooConfig.isConfig(file);
    }

    @Override
    public SuiteLoad load(Path path, CheckValidator checks) {
        Path file = PromptfooConfig.configFile(path);
        PromptfooConfig config = PromptfooConfig.read(file);
        PromptfooCases.Built built = PromptfooCases.of(config);
        var problems = new ArrayList<CaseProblem>(config.problems());
        problems.addAll(built.problems());
        var valid = new ArrayList<Case>();
        for (Case evalCase : built.cases()) {
            // A case with an assertion Assay lacks is kept, to be skipped with its reason: its checks are not judged.
            if (built.unsupported().containsKey(evalCase.id()) || validates(evalCase, checks, problems)) {
                valid.add(evalCase);
            }
        }
        if (valid.isEmpty() && problems.isEmpty()) {
            problems.add(new CaseProblem(
                    "suite.empty",
                    new SourceRef(file.toString(), 0),
                    "",
                    "",
                    "the config makes no case",
                    "at least one prompt and one provider"));
        }
        String name = config.description().isEmpty() ? suiteName(file) : config.description();
        return new SuiteLoad(
                new Suite(name, SuiteSnapshots.version(valid, Map.of()), valid, Map.of(), List.of(file.toString())),
                problems);
    }

    @Override
    public Optional<String> subject(Path path) {
        Path file = PromptfooConfig.configFile(path);
        return file == null
                ? Optional.empty()
                : Optional.of(
                        PromptfooSubjects.NAME + ":" + file.toAbsolutePath().normalize());
    }

    private static boolean validates(Case evalCase, CheckValidator checks, List<CaseProblem> problems) {
        for (int i = 0; i < evalCase.checks().size(); i++) {
            try {
                checks.validate(evalCase.checks().get(i));
            } catch (AssayException e) {
                problems.add(new CaseProblem(
                        e.problem().type(),
                        evalCase.source(),
                        evalCase.id(),
                        "assert[" + i + "]",
                        e.problem().message(),
                        ""));
                return false;
            }
        }
        return true;
    }

    private static String suiteName(Path file) {
        Path parent = file.toAbsolutePath().normalize().getParent();
        return parent == null || parent.getFileName() == null
                ? "promptfoo"
                : parent.getFileName().toString();
    }
}
