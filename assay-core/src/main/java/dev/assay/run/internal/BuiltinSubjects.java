package dev.assay.run.internal;

import dev.assay.model.ChatModel;
import dev.assay.model.ChatModels;
import dev.assay.model.ModelOptions;
import dev.assay.run.EvalSpec;
import dev.assay.run.SubjectContext;
import dev.assay.run.SubjectFactory;
import dev.assay.run.UserModelOptions;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.LabelledSubjects;
import dev.assay.subject.Subject;
import dev.assay.subject.UserModels;
import dev.assay.subject.replay.internal.Recording;
import dev.assay.subject.replay.internal.ReplaySubject;
import dev.assay.subject.sse.internal.SseAgentSubject;
import java.util.LinkedHashMap;
import java.util.List;

/** Assay's own systems under test, the one place they are listed. Thread-safe (stateless). */
public final class BuiltinSubjects {
    /** {@code agent}: the run's model ({@code --model}) driven by Assay's agent loop with the offered tools. */
    public static final SubjectFactory AGENT = new SubjectFactory() {
        @Override
        public String name() {
            return "agent";
        }

        @Override
        public Subject create(SubjectContext context) throws InterruptedException {
            return agent(context, ((EvalSpec.Model) context.spec().subject().sut()).options());
        }
    };

    /**
     * {@code models}: several models ({@code --model A --model B}, {@code --versus}), each driven by Assay's agent loop
     * with the same tools, under its label; a case runs against the one it is bound to.
     */
    public static final SubjectFactory MODELS = new SubjectFactory() {
        @Override
        public String name() {
            return "models";
        }

        @Override
        public Subject create(SubjectContext context) throws InterruptedException {
            var byLabel = new LinkedHashMap<String, Subject>();
            try {
                for (var model : ((EvalSpec.Models) context.spec().subject().sut())
                        .byLabel()
                        .entrySet()) {
                    byLabel.put(model.getKey(), agent(context, model.getValue()));
                }
            } catch (InterruptedException | RuntimeException e) {
                byLabel.values().forEach(Subject::close);
                throw e;
            }
            return new LabelledSubjects(byLabel);
        }
    };

    /** {@return {@code options}' model driven by Assay's agent loop with the run's tools and user model} */
    private static Subject agent(SubjectContext context, ModelOptions options) throws InterruptedException {
        EvalSpec spec = context.spec();
        ChatModel chatModel = ChatModels.chatModel(options, context.env(), context.log());
        UserModelOptions userModel = spec.subject().userModel();
        // The user model goes through the same provider, retries and secret masking as the model under test.
        var users = new UserModels(
                userModel.model(),
                name -> ChatModels.chatModel(userModel.optionsFor(name, options), context.env(), context.log()));
        return new AgentSubject(
                chatModel,
                context.tools(),
                spec.subject().agent(),
                spec.limits().concurrency(),
                context.withheldTools(),
                users);
    }

    /** {@code sse}: an agent service ({@code --agent}), which runs its own loop and tools; Assay executes nothing. */
    public static final SubjectFactory SSE = new SubjectFactory() {
        @Override
        public String name() {
            return "sse";
        }

        @Override
        public Subject create(SubjectContext context) throws InterruptedException {
            return SseAgentSubject.open(
                    ((EvalSpec.AgentService) context.spec().subject().sut()).settings(), context.env());
        }
    };

    /** {@code replay}: a recording ({@code --replay}) re-scored without calling anything. */
    public static final SubjectFactory REPLAY = new SubjectFactory() {
        @Override
        public String name() {
            return "replay";
        }

        @Override
        public Subject create(SubjectContext context) {
            return new ReplaySubject(
                    Recording.read(((EvalSpec.Replay) context.spec().subject().sut()).path()));
        }
    };

    private BuiltinSubjects() {}

    public static List<SubjectFactory> all() {
        return List.of(AGENT, MODELS, SSE, REPLAY);
    }
}
