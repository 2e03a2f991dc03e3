package dev.assay.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EventLogTest {
    @Test
    void a_subscriber_that_falls_behind_is_dropped_while_publishing_goes_on() {
        var log = new EventLog(100, 3);
        var slow = log.subscribe(Long.MAX_VALUE);
        for (int i = 0; i < 50; i++) {
            log.publish("eval_log", "{}");
        }
        assertThat(slow.subscriber().dropped()).isTrue();
        assertThat(log.lastId()).isEqualTo(50);
    }

    @Test
    void a_subscription_after_an_id_replays_the_buffered_events_after_it() throws InterruptedException {
        var log = new EventLog(100, 10);
        for (int i = 0; i < 5; i++) {
            log.publish("eval_log", "{}");
        }
        var subscription = log.subscribe(2);
        assertThat(subscription.complete()).isTrue();
        assertThat(subscription.replay()).extracting(EventLog.Event::id).containsExactly(3L, 4L, 5L);
        log.publish("eval_item", "{}");
        assertThat(subscription.subscriber().poll(Duration.ofSeconds(1)).id()).isEqualTo(6);
    }

    @Test
    void a_subscription_past_the_buffer_is_marked_incomplete() {
        var log = new EventLog(3, 10);
        for (int i = 0; i < 10; i++) {
            log.publish("eval_log", "{}");
        }
        assertThat(log.subscribe(2).complete()).isFalse();
        assertThat(log.subscribe(7).complete()).isTrue();
    }

    @Test
    void a_closed_log_ends_its_subscriptions_once_drained() throws InterruptedException {
        var log = new EventLog(10, 10);
        var subscription = log.subscribe(0);
        log.close("eval_finished", "{}");
        assertThat(subscription.subscriber().finished()).isFalse();
        assertThat(subscription.subscriber().poll(Duration.ofSeconds(1)).name()).isEqualTo("eval_finished");
        assertThat(subscription.subscriber().finished()).isTrue();
        assertThat(log.subscribe(0).finalEvent().name()).isEqualTo("eval_finished");
    }
}
