package dev.assay.dialog;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChatModelSubjectTest {
    private static final Duration LIMIT = Duration.ofSeconds(5);

    @Test
    void the_system_prompt_comes_first_in_every_request() throws Exception {
        var model = ScriptedChatModel.answering();
        DialogSubject.Session session = new ChatModelSubject(model, "你是顾问", 0.0, 7L).open("s", "u");

        session.send("一", LIMIT);
        session.send("二", LIMIT);

        assertThat(model.requests.getLast().messages())
                .extracting(message -> message.role().wireName())
                .containsExactly("system", "user", "assistant", "user");
        assertThat(model.requests.getLast().seed()).isEqualTo(7L);
    }

    @Test
    void an_abandoned_call_that_answers_late_does_not_enter_the_conversation() throws Exception {
        var model = new ScriptedChatModel(null, 0, "慢", 300);
        DialogSubject.Session session = new ChatModelSubject(model, "", null, null).open("s", "u");
        Thread abandoned = Thread.ofVirtual().start(() -> {
            try {
                session.send("慢", LIMIT);
            } catch (Exception expected) {
                // the abandoned call reports target.cancelled to nobody
            }
        });
        Thread.sleep(50);
        abandoned.interrupt();
        abandoned.join();

        TurnResponse next = session.send("快", LIMIT);

        assertThat(next.recall().path("short_term_context").asText()).isEmpty();
        assertThat(model.requests.getLast().messages()).hasSize(1);
    }

    @Test
    void sessions_of_different_dialogs_do_not_share_memory() throws Exception {
        var subject = new ChatModelSubject(ScriptedChatModel.answering(), "", null, null);
        subject.open("s1", "u1").send("一", LIMIT);

        TurnResponse other = subject.open("s2", "u2").send("二", LIMIT);

        assertThat(other.recall().path("short_term_turns").isEmpty()).isTrue();
    }
}
