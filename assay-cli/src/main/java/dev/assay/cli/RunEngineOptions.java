package dev.assay.cli;

import dev.assay.run.Engine;
import dev.assay.store.Store;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options of {@code assay run} that set the engine of this process, not the run's description: which stored answers
 * it reuses ({@code --cache}) and how long it rides out a database that went away ({@code --db-retry}). A continued run
 * takes them too.
 */
final class RunEngineOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(
            names = "--cache",
            paramLabel = "<max-age>",
            arity = "0..1",
            fallbackValue = "forever",
            description = "Reuse model answers kept by earlier runs for the same question (same model, endpoint, "
                    + "case, messages, tools and sampling), optionally only those younger than <max-age> (90s, 30m, "
                    + "12h, 7d). Without it only the run's own answers are reused (when resumed).")
    String cache;

    @Option(
            names = "--db-retry",
            paramLabel = "<seconds>",
            defaultValue = "180",
            description = "How long a run keeps its finished items in memory and retries while the database is "
                    + "unavailable before it stops as interrupted (exit 3) (default: ${DEFAULT-VALUE}).")
    double dbRetrySeconds;

    /** {@return the engine these options describe, storing into {@code store}} */
    Engine engine(Store store) {
        return new Engine(store, Duration.ofMillis((long) (dbRetrySeconds * 1000)), cacheMaxAge());
    }

    /** {@return how old an answer of another run may be to be reused; null without --cache} */
    private Duration cacheMaxAge() {
        if (cache == null) {
            return null;
        }
        if (cache.equals("forever")) {
            return Engine.FOREVER;
        }
        var age = Pattern.compile("(\\d+)\\s*([smhd]?)").matcher(cache.strip());
        if (!age.matches()) {
            throw new ParameterException(
                    mixee.commandLine(),
                    "--cache takes a maximum age such as 90s, 30m, 12h or 7d, got '" + cache + "'");
        }
        return Ages.of(Long.parseLong(age.group(1)), age.group(2), ChronoUnit.SECONDS);
    }
}
