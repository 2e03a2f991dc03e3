package dev.assay.subject.internal;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.cases.SimulatedUser;
import dev.assay.model.ChatMessage;
import dev.assay.model.ChatModel;
import dev.assay.model.ModelRequest;
import dev.assay.model.ModelResponse;
import dev.assay.subject.AgentSubject;
import dev.assay.subject.Session;
import dev.assay.subject.TrialObserver;
import dev.assay.transcript.TranscriptEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The user of one conversation, played by a user model from the case's instructions, as τ-bench's user simulator does:
 * the model gets guidelines and the scenario as its system prompt and sees the conversation with the roles flipped (the
 * agent's replies as user messages, its own messages as assistant messages). Its calls go through the session's
 * response cache (kept within the run, so a resumed run replays them) and observer, like the agent's; retries and
 * secret masking are the model's own ({@link dev.assay.model.ChatModels}). One per trial; not thread-safe.
 */
public final class UserSimulator {
    /**
     * What the user model is answering when it writes its first message: τ-bench's agent greeting. Only the user model
     * sees it; the agent's conversation starts with the user's first message.
     */
    static final String GREETING = "Hi! How can I help you today?";

    private final ChatModel model;
    private final List<ChatMessage> history = new ArrayList<>();

    public UserSimulator(ChatModel model, SimulatedUser user) {
        this.model = model;
        history.add(ChatMessage.system(systemPrompt(user)));
        history.add(ChatMessage.user(GREETING));
    }

    /** {@return the user model's system prompt: how to play a user, then the case's instructions} */
    static String systemPrompt(SimulatedUser user) {
        return """
                You play a customer who contacts a customer service agent, to test that agent. Act as that customer \
                would, following the scenario below.

                - Write one message at a time, as plain text, in the customer's own words; do not repeat the \
                scenario's wording verbatim.
                - Follow the scenario strictly. Never invent facts it does not give you: what it does not say, you do \
                not know.
                - Give information step by step, when the agent asks for it.
                - When your goal is met, or you are transferred to another agent, or the scenario leaves you nothing \
                more to say, write %s to end the conversation.

                <scenario>
                %s
                </scenario>""".formatted(user.stop(), user.instructions().strip());
    }

    /**
     * {@return the user's next message, recorded as a {@code user_turn}; null when the user model failed, recorded as a
     * {@code target_error}}
     *
     * @param reply the agent's last reply; null before the first message
     * @param scope the trial's cache scope (the case and sample)
     */
    public String say(String reply, String scope, Session session) throws InterruptedException {
        if (reply != null) {
            history.add(ChatMessage.user(reply));
        }
        var request = new ModelRequest(List.copyOf(history), List.of(), null, null, null, session.remaining());
        TrialObserver.ModelCall observed = session.observer().modelCall(model.name(), request);
        ModelResponse response;
        try {
            response = session.responses().complete(model, scope, request);
        } catch (AssayException e) {
            observed.failed(e.problem());
            Problem problem = Problem.of(
                            "user.model_failed",
                            "the user model failed: " + e.problem().message())
                    .withDetail("cause", e.problem().type());
            session.transcript().add(new TranscriptEvent.SubjectError(Instant.now(), problem));
            return null;
        } catch (InterruptedException e) {
            observed.failed(AgentSubject.INTERRUPTED);
            throw e;
        }
        observed.answered(response);
        history.add(ChatMessage.assistant(response.text(), List.of()));
        session.transcript().add(new TranscriptEvent.UserTurn(Instant.now(), response.text(), response.usage()));
        return response.text();
    }
}
