package dev.assay.subject.sse.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseParserTest {
    private static List<SseEvent> parse(String stream) {
        var parser = new SseParser();
        var events = new ArrayList<SseEvent>();
        stream.lines().forEach(line -> parser.accept(line).ifPresent(events::add));
        parser.finish().ifPresent(events::add);
        return events;
    }

    @Test
    void data_lines_of_one_event_are_joined_with_newlines() {
        assertThat(parse("event: final\ndata: {\"a\":\ndata:  1}\n\n"))
                .containsExactly(new SseEvent("final", "", "{\"a\":\n 1}"));
    }

    @Test
    void comments_and_retry_fields_are_ignored() {
        assertThat(parse(": ping\nretry: 1000\n\ndata: x\n\n")).containsExactly(new SseEvent("message", "", "x"));
    }

    @Test
    void the_last_id_carries_over_to_later_events() {
        assertThat(parse("id: 7\nevent: a\ndata: 1\n\nevent: b\ndata: 2\n\n"))
                .extracting(SseEvent::id)
                .containsExactly("7", "7");
    }

    @Test
    void an_event_without_data_is_not_dispatched_and_its_name_is_forgotten() {
        assertThat(parse("event: lonely\n\ndata: x\n\n")).containsExactly(new SseEvent("message", "", "x"));
    }

    @Test
    void an_event_cut_off_by_the_end_of_the_stream_is_kept() {
        assertThat(parse("event: final\ndata: done")).containsExactly(new SseEvent("final", "", "done"));
    }
}
