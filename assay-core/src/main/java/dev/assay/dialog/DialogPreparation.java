package dev.assay.dialog;

import dev.assay.AssayException;
import dev.assay.check.judge.Judge;
import dev.assay.check.judge.JudgeCache;
import dev.assay.check.judge.JudgeModel;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelOptions;
import dev.assay.run.EvalSpec;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Prepares a dialog run (an {@link EvalSpec} whose dataset is {@link EvalSpec.Dialogs}) for {@code run.Engine}: loads
 * the dataset and builds the judge and the system under test. Started as new or resumed, the workload is the same.
 * Stateless.
 */
public final class DialogPreparation {
    private DialogPreparation() {}

    /**
     * A dialog run ready for {@code run.Engine}. Close it once the run has ended: it holds the chat model's
     * connections.
     *
     * @param workload the run's dialogs and how they are replayed and scored
     * @param data the dataset as loaded, with its skipped lines
     * @param subject the system under test
     */
    public record Prepared(DialogWorkload workload, Dataset data, DialogSubject subject) implements AutoCloseable {
        @Override
        public void close() {
            if (subject instanceof ChatModelSubject chat) {
                chat.model().close();
            }
        }
    }

    /**
     * Loads the dataset and builds the judge and the system under test, the judge first, so that a misconfigured judge
     * fails the run before any turn is replayed.
     *
     * @param spec the dialog run's spec
     * @param runId the run's id
     * @param models creates chat models (the model under test and the judge's)
     * @param env reads environment variables: the agent service's credential only
     * @param log receives the agent service's retry lines
     * @param judgeCache where the judge's answers are kept
     * @throws AssayException {@code dialog.*} for an unreadable dataset, or the target's configuration problem
     *     ({@code target.missing_api_key}, ...)
     */
    public static Prepared prepare(
            EvalSpec spec,
            String runId,
            Function<ModelOptions, ChatModel> models,
            Function<String, String> env,
            Consumer<String> log,
            JudgeCache judgeCache) {
        EvalSpec.Dialogs dialogs =
                Objects.requireNonNull(spec.dataset().dialogs(), "the spec of a capability run, not a dialog run");
        Optional<ExplainabilityJudge> explainability =
                Optional.ofNullable(dialogs.judge()).map(settings -> judge(settings, models, judgeCache));
        Dataset data = Dataset.load(dialogs.file());
        DialogSubject subject;
        String subjectName;
        switch (spec.subject().sut()) {
            case EvalSpec.AgentService agent -> {
                var service = SseAgentService.open(agent.settings(), runId, env, log);
                subject = new AgentServiceSubject(service, dialogs.fieldMapping());
                subjectName = service.name();
            }
            case EvalSpec.Model model -> {
                subject = new ChatModelSubject(
                        models.apply(model.options()),
                        dialogs.systemPrompt(),
                        spec.subject().agent().temperature(),
                        spec.subject().agent().seed());
                subjectName = model.options().model();
            }
            default -> throw new IllegalArgumentException("a dialog run replays against a model or an agent service");
        }
        var config = new DialogRunConfig(
                runId,
                dialogs.name(),
                subjectName,
                dialogs.promptVersion(),
                spec.limits().concurrency(),
                spec.limits().timeout(),
                dialogs.turnRetries(),
                dialogs.score(),
                dialogs.fieldMapping());
        return new Prepared(
                new DialogWorkload(
                        data, subject, config, dialogs.runDirectory(), explainability, spec.userId(), spec.toJson()),
                data,
                subject);
    }

    /**
     * {@return the judge {@code settings} name}
     *
     * @param models creates its chat model
     * @param cache where its answers are kept
     */
    public static ExplainabilityJudge judge(
            EvalSpec.DialogJudge settings, Function<ModelOptions, ChatModel> models, JudgeCache cache) {
        ChatModel chat = models.apply(settings.model());
        return new ExplainabilityJudge(
                new Judge(new JudgeModel("default", chat, settings.model().baseUrl(), null), cache),
                settings.workers());
    }
}
