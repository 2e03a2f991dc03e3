package dev.assay.promptfoo;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.model.ChatModel;
import dev.assay.model.ChatModels;
import dev.assay.run.SubjectContext;
import dev.assay.run.SubjectFactory;
import dev.assay.subject.LabelledSubjects;
import dev.assay.subject.Subject;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The providers of a promptfoo config as the run's systems under test, one per provider label ({@code --subject
 * promptfoo:CONFIG}, which {@code assay run CONFIG} names itself). Tells the log, once per config, which assertion
 * types Assay does not have and which tests are skipped for them. A service of assay-promptfoo. Thread-safe
 * (stateless).
 */
public final class PromptfooSubjects implements SubjectFactory {
    /** The factory's name. */
    public static final String NAME = "promptfoo";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Subject create(SubjectContext context) {
        Path file = PromptfooConfig.configFile(Path.of(context.argument()));
        if (file == null) {
            throw new AssayException(
                    Problem.of("promptfoo.config_not_found", "no promptfoo config at '" + context.argument() + "'")
                            .withDetail("field", "subject"));
        }
        PromptfooConfig config = PromptfooConfig.read(file);
        PromptfooCases.Built built = PromptfooCases.of(config);
        reportUnsupported(config, built, context);
        var byLabel = new LinkedHashMap<String, Subject>();
        try {
            for (Provider provider : config.providers()) {
                ChatModel model = provider.isEcho()
                        ? null
                        : ChatModels.chatModel(provider.modelOptions(context.env()), context.env(), context.log());
                byLabel.put(
                        provider.key(),
                        new ProviderSubject(
                                provider, model, context.spec().limits().concurrency(), built.unsupported()));
            }
        } catch (RuntimeException e) {
            byLabel.values().forEach(Subject::close);
            throw e;
        }
        if (byLabel.isEmpty()) {
            throw new AssayException(Problem.of(
                            "promptfoo.missing_providers", "the promptfoo config " + file + " names no usable provider")
                    .withDetail("file", file.toString()));
        }
        return new LabelledSubjects(byLabel);
    }

    /** One line per reason an assertion cannot be judged, naming the config and the tests it skips. */
    private static void reportUnsupported(PromptfooConfig config, PromptfooCases.Built built, SubjectContext context) {
        var testsByReason = new LinkedHashMap<String, Set<String>>();
        built.cases().forEach(evalCase -> {
            List<String> reasons = built.unsupported().get(evalCase.id());
            if (reasons != null) {
                String test =
                        evalCase.attributes().path("promptfoo").path("test").asText();
                reasons.forEach(reason -> testsByReason
                        .computeIfAbsent(reason, key -> new LinkedHashSet<>())
                        .add(test));
            }
        });
        testsByReason.forEach((reason, tests) -> context.log()
                .accept("promptfoo: " + config.file() + ": " + reason + "; these tests are skipped: "
                        + String.join(", ", tests)));
    }
}
