package dev.assay.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SandboxesTest {
    @Test
    void a_search_begins_before_it_is_asked_for_and_runs_once() throws Exception {
        var searches = new AtomicInteger();
        var begun = new CountDownLatch(1);
        Sandboxes.Finder searching = Sandboxes.searching(() -> {
            searches.incrementAndGet();
            begun.countDown();
            return Optional.of(new UnsandboxedSandbox());
        });

        begun.await();
        Optional<? extends Sandbox> first = searching.find();

        assertThat(first).containsInstanceOf(UnsandboxedSandbox.class);
        assertThat(searching.find()).isSameAs(first);
        assertThat(searches).hasValue(1);
    }

    @Test
    void what_finds_none_still_fails_closed_and_a_failed_search_is_the_askers_failure() {
        assertThatThrownBy(() -> Sandboxes.detect(false, Sandboxes.searching(Optional::empty)))
                .isInstanceOf(AssayException.class)
                .hasMessageContaining("no usable sandbox");
        var broken = new IllegalStateException("probe broke");
        assertThatThrownBy(() -> Sandboxes.searching(() -> {
                            throw broken;
                        })
                        .find())
                .isSameAs(broken);
    }

    @Test
    void an_interrupted_search_interrupts_its_asker() {
        assertThatThrownBy(() -> Sandboxes.searching(() -> {
                            throw new InterruptedException("stopped");
                        })
                        .find())
                .isInstanceOf(InterruptedException.class);
    }
}
