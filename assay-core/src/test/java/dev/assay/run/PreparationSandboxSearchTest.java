package dev.assay.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.assay.AssayException;
import dev.assay.check.CheckerRegistry;
import dev.assay.model.ModelOptions;
import dev.assay.sandbox.Sandbox;
import dev.assay.sandbox.Sandboxes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run looks for its sandbox while it prepares; a preparation that fails, wherever it fails, lets that search end
 * before it reports the failure (the command exits next, and a probe cut off by the exit leaves its directory), and a
 * run whose subject needs no sandbox never looks for one.
 */
class PreparationSandboxSearchTest {
    @TempDir
    Path temp;

    private final AtomicInteger searches = new AtomicInteger();
    private final AtomicBoolean searchEnded = new AtomicBoolean();

    /** Finds none, slowly, as a probe that starts processes takes its time. */
    private final Sandboxes.Finder slowProbe = () -> {
        searches.incrementAndGet();
        Thread.sleep(300);
        searchEnded.set(true);
        return Optional.<Sandbox>empty();
    };

    private void prepare(RunSettings settings, String suiteLine) throws Exception {
        Path suite = Files.writeString(temp.resolve("suite.jsonl"), suiteLine + "\n");
        settings.suites(List.of(suite))
                .resolve()
                .prepare(null, temp.resolve("work"), CheckerRegistry.builtins(), name -> null, line -> {}, slowProbe);
    }

    @Test
    void a_model_without_its_api_key_fails_after_the_search_has_ended() {
        var model = new ModelOptions("openai:gpt-4o-mini", null, null, false, null, null);

        assertThatThrownBy(
                        () -> prepare(
                                new RunSettings().model(model),
                                "{\"id\": \"a\", \"dimension\": \"common\", \"prompt\": \"hi\", \"checker\": \"contains\", \"expected\": \"hi\"}"))
                .isInstanceOfSatisfying(
                        AssayException.class,
                        e -> assertThat(e.problem().type()).isEqualTo("target.missing_api_key"));
        assertThat(searchEnded).isTrue();
    }

    @Test
    void an_invalid_suite_fails_after_the_search_has_ended() {
        var model = new ModelOptions("openai:gpt-4o-mini", null, null, false, null, null);

        assertThatThrownBy(() -> prepare(new RunSettings().model(model), "{\"id\": \"a\", \"prompt\": "))
                .isInstanceOf(AssayException.class);
        assertThat(searchEnded).isTrue();
    }

    @Test
    void a_subject_that_needs_no_sandbox_never_looks_for_one_even_when_its_preparation_fails() {
        assertThatThrownBy(() -> prepare(new RunSettings().subject("nosuch:arg"), "{\"id\": \"a\", \"prompt\": "))
                .isInstanceOf(AssayException.class);
        assertThat(searches).hasValue(0);
    }
}
