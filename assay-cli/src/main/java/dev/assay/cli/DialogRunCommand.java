package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.model.RetryPolicy;
import dev.assay.run.EvalSpec;
import dev.assay.run.FieldMapping;
import dev.assay.run.RunSettings;
import dev.assay.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code dialog run}: replay a dataset against a model or an agent service and score it. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = "Replay every valid dialog of a dataset against a model (--model) or an agent service "
                + "(--agent), turn by turn, and score the run.")
final class DialogRunCommand implements Callable<Integer>, EnvironmentFactory.NeedsEnvironment {
    @Spec
    CommandSpec spec;

    private Map<String, String> env = Map.of();

    @ParentCommand
    DialogCommand parent;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "DATASET",
            description = "The dialog dataset (JSONL); none with --resume.")
    Path dataset;

    @Option(
            names = "--resume",
            paramLabel = "ID",
            description = "Continue a stored dialog run that ended without finishing from its stored description "
                    + "(as 'assay run --resume'): its ok and skipped dialogs are kept, the others replayed.")
    String resume;

    @Mixin
    ModelOptionsMixin model = new ModelOptionsMixin();

    @Mixin
    AgentOptionsMixin agent = new AgentOptionsMixin();

    @Option(
            names = "--field-mapping",
            paramLabel = "<field=pointer,...>",
            description = "With --agent: where the trace's recall, tools, compliance and profile_snapshot are in "
                    + "the agent's turn report, e.g. recall=/memory_recall,compliance= (see docs/dialog.md).")
    String fieldMapping;

    @Mixin
    DatabaseOption database;

    @Option(
            names = "--run-id",
            paramLabel = "ID",
            description = "Run id; re-using one resumes its run directory. Default: the start time (yyyyMMdd_HHmmss).")
    String runId;

    @Option(
            names = {"-o", "--out"},
            paramLabel = "DIR",
            description = "Parent directory of run directories; default ${DEFAULT-VALUE}.",
            defaultValue = "runs/dialog")
    Path outDir;

    @Option(
            names = "--workers-dialog",
            paramLabel = "N",
            defaultValue = "" + EvalSpec.Dialogs.DEFAULT_CONCURRENCY,
            converter = OptionValues.AtLeastOne.class,
            description = "Dialogs replayed in parallel; default ${DEFAULT-VALUE}.")
    int workersDialog;

    @Option(
            names = "--turn-timeout",
            paramLabel = "SECONDS",
            defaultValue = "" + EvalSpec.Limits.DEFAULT_TIMEOUT_S,
            converter = OptionValues.AtLeastOne.class,
            description = "Time limit of one call of one turn; default ${DEFAULT-VALUE}.")
    int turnTimeoutSeconds;

    @Option(
            names = "--turn-retries",
            paramLabel = "N",
            defaultValue = "" + EvalSpec.Dialogs.DEFAULT_TURN_RETRIES,
            converter = OptionValues.NotNegative.class,
            description = "Extra attempts after a failed or timed-out call; default ${DEFAULT-VALUE}.")
    int turnRetries;

    @Mixin
    DialogPromptOptions prompt = new DialogPromptOptions();

    @Mixin
    DialogScoringOptions scoring = new DialogScoringOptions();

    @Mixin
    JudgeOptionsMixin judgeOptions = new JudgeOptionsMixin();

    @Override
    public Integer call() throws InterruptedException {
        if (resume != null) {
            if (dataset != null || model.given() || agent.given() || runId != null) {
                throw new ParameterException(
                        spec.commandLine(),
                        "a resumed dialog run takes its dataset and target from its stored description; give "
                                + "only the run id");
            }
            return DialogCommand.resume(resume, parent.models, database, env, spec.commandLine());
        }
        refuseConflicts();
        OutputDirectories.requireWritable(spec.commandLine(), "--out", outDir);
        String id = runId != null
                ? runId
                : LocalDateTime.now(ZoneId.systemDefault()).format(DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss"));
        EvalSpec request = spec(id);
        Optional<dev.assay.result.Run> earlier;
        try (Store store = database.open()) {
            earlier = store.findRun(id);
        }
        earlier.filter(existing -> !existing.kind().equals(dev.assay.result.RunKind.DIALOG))
                .ifPresent(existing -> {
                    throw new AssayException(Problem.of(
                                    "config.run_id_taken",
                                    "run id " + id + " belongs to a " + existing.kind() + " run; choose another")
                            .withDetail("field", "run_id"));
                });
        // Re-using the id of a dialog run that ended resumes it with these flags: its ok and skipped dialogs are
        // kept.
        return DialogCommand.execute(
                request, id, earlier.isPresent(), parent.models, database, env, spec.commandLine());
    }

    /** @throws ParameterException for flags that do not go together */
    private void refuseConflicts() {
        if (dataset == null) {
            throw new ParameterException(spec.commandLine(), "give the DATASET (or --resume RUN_ID)");
        }
        if (model.given() == agent.given()) {
            throw new ParameterException(spec.commandLine(), "give exactly one of --model and --agent");
        }
        if (fieldMapping != null && !agent.given()) {
            throw new ParameterException(spec.commandLine(), "--field-mapping applies to --agent only");
        }
        if (prompt.given() && agent.given()) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--system-prompt applies to --model only; an agent service keeps its own prompt");
        }
    }

    /**
     * {@return the run the flags describe, through the one resolver ({@link RunSettings#resolve})}: what the API's
     * dialog start body resolves to for the same settings
     *
     * @param id the run's id: its reference files go to {@code --out}/{@code id}
     * @throws ParameterException for a {@code --field-mapping} or agent option that does not parse
     */
    EvalSpec spec(String id) {
        String systemPrompt = prompt.read();
        Duration turnTimeout = Duration.ofSeconds(turnTimeoutSeconds);
        FieldMapping mapping = null;
        if (agent.given()) {
            try {
                mapping = FieldMapping.parse(fieldMapping);
            } catch (AssayException e) {
                throw new ParameterException(
                        spec.commandLine(), "--field-mapping: " + e.problem().message());
            }
        }
        return new RunSettings()
                .dialogs(new EvalSpec.Dialogs(
                        dataset.toString(),
                        dataset,
                        outDir.resolve(id),
                        systemPrompt,
                        prompt.version(systemPrompt),
                        mapping,
                        turnRetries,
                        scoring.toOptions(),
                        judgeOptions.settings().orElse(null)))
                .model(model.given() ? model.toOptions(spec.commandLine(), false, turnTimeout, null) : null)
                .temperature(model.temperature)
                .samplingSeed(model.seed)
                // Requests are retried within a turn's time limit before --turn-retries retries the turn.
                .agentService(
                        agent.given() ? agent.settings(null, false, "", RetryPolicy.defaults(), workersDialog) : null)
                .concurrency(workersDialog)
                .timeout(turnTimeout)
                .resolve();
    }

    @Override
    public void environment(Map<String, String> environment) {
        this.env = environment;
    }
}
