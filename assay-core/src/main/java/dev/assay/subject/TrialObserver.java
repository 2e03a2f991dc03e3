package dev.assay.subject;

import dev.assay.Problem;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.tools.ToolResult;

/**
 * Told what the system under test does in one trial (an item: a case, or a sample of one), as it does it: each model
 * call and each tool call of Assay's agent loop, in the loop's order. The engine hands one to every trial through its
 * {@link Session}; {@link #NONE}, which does nothing, when nothing observes the run (an outside tracer does:
 * {@code dev.assay.run.RunObserver}). Calls come from the trial's one thread; an implementation must not block and must
 * not throw (it follows the run, it never changes it).
 */
public interface TrialObserver {
    /** Observes nothing. */
    TrialObserver NONE = new TrialObserver() {};

    /**
     * A model call begins.
     *
     * @param model the model as users name it ({@code openai:gpt-4o-mini}, {@code mock})
     * @param request what is sent
     * @return told how the call ended
     */
    default ModelCall modelCall(String model, ModelRequest request) {
        return ModelCall.NONE;
    }

    /**
     * A tool call begins.
     *
     * @param tool the tool's canonical name
     * @param callId the call's id, as the model gave it; may be empty
     * @return told how the call ended
     */
    default ToolCall toolCall(String tool, String callId) {
        return ToolCall.NONE;
    }

    /** One model call, told once how it ended. */
    interface ModelCall {
        /** Observes nothing. */
        ModelCall NONE = new ModelCall() {};

        /** The model answered. */
        default void answered(ModelResponse response) {}

        /** The call failed once retries were exhausted ({@code target.*}). */
        default void failed(Problem problem) {}
    }

    /** One tool call, told once how it ended. */
    interface ToolCall {
        /** Observes nothing. */
        ToolCall NONE = new ToolCall() {};

        /** The tool returned (a failed result included). */
        default void ended(ToolResult result) {}
    }
}
