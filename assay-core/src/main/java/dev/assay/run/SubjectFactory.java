package dev.assay.run;

import dev.assay.subject.Subject;

/**
 * A kind of system under test, found by name through {@link dev.assay.Plugins}
 * ({@code META-INF/services/dev.assay.run.SubjectFactory}). Assay's own are {@code agent} (a model driven by Assay's
 * agent loop, {@code --model}), {@code sse} (an agent service, {@code --agent}) and {@code replay} (a recording,
 * {@code --replay}); a plug-in's is named with {@code --subject NAME} or {@code --subject NAME:ARGUMENT}.
 * Implementations are thread-safe.
 */
public interface SubjectFactory {
    /** {@return the name users give to {@code --subject}} */
    String name();

    /**
     * {@return the system under test of one run} It sees each case's input only, never the checks it is judged by.
     *
     * @param context the run's description, the argument after {@code NAME:}, the environment, the log, and the tools
     *     Assay's tool providers offer
     * @throws dev.assay.AssayException a configuration problem that stops the run before it starts
     */
    Subject create(SubjectContext context) throws InterruptedException;
}
