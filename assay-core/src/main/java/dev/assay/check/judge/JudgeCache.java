package dev.assay.check.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.internal.WholeFiles;
import dev.assay.model.ResponseCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Judge answers by request hash, one small file each ({@code <dir>/<hash>.txt} holding the reply's text): the
 * {@link ResponseCache} of a judge used outside a run, such as re-scoring dialog traces ({@code assay dialog judge}),
 * where no run database keeps them; inside a run the judge's answers are the run's (docs/judge.md, "Cache"). Only
 * answers that parsed are stored: never errors or empty responses. Thread-safe and safe across processes: files are
 * written whole, then moved into place.
 */
public final class JudgeCache implements ResponseCache {
    private static final Pattern KEY = Pattern.compile("[0-9a-f]{64}");

    private final Path directory;
    private final boolean acrossRuns;

    private JudgeCache(Path directory, boolean acrossRuns) {
        this.directory = directory;
        this.acrossRuns = acrossRuns;
    }

    /** {@return a cache in {@code directory}} (created when first written), e.g. {@code $ASSAY_HOME/cache/judge} */
    public static JudgeCache in(Path directory) {
        return new JudgeCache(directory, true);
    }

    /** {@return a cache that stores nothing} */
    public static JudgeCache disabled() {
        return new JudgeCache(null, false);
    }

    /**
     * {@return a cache that keeps no file but lets a run reuse the answers of other runs it asks for
     * ({@code --cache})}: a run's judges, built from its spec, which keeps answers in the run's database
     */
    public static JudgeCache acrossRuns() {
        return new JudgeCache(null, true);
    }

    /** {@return whether answers are kept at all} */
    boolean enabled() {
        return directory != null;
    }

    @Override
    public boolean looksUp() {
        return enabled();
    }

    /** {@return the kept reply as a model answer, {@code {"text": ...}}} */
    @Override
    public Optional<JsonNode> find(String key) {
        if (directory == null) {
            return Optional.empty();
        }
        Path file = file(key);
        try {
            return Files.isRegularFile(file)
                    ? Optional.of(Json.object().put("text", Files.readString(file, StandardCharsets.UTF_8)))
                    : Optional.empty();
        } catch (IOException e) {
            // An unreadable entry is a miss: the judge is asked again and the entry rewritten.
            return Optional.empty();
        }
    }

    /** Keeps the text of a model answer ({@code {"text": ...}}); a blank one is not kept. */
    @Override
    public void keep(String key, JsonNode answer) {
        String text = answer.path("text").asText("");
        if (directory == null || text.isBlank()) {
            return;
        }
        try {
            WholeFiles.write(file(key), out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            // The cache only saves money; a full disk must not change a verdict.
        }
    }

    /** {@return a cache that keeps nothing: these files are no run's, so nothing of them is within one} */
    @Override
    public ResponseCache withinRun() {
        return disabled();
    }

    private Path file(String key) {
        if (!KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("a cache key is a hex SHA-256, got " + key);
        }
        return directory.resolve(key + ".txt");
    }

    /**
     * {@return where a judge keeps its answers for a check: the run's answers inside a run, reused from earlier runs
     * only while this cache is enabled; this cache outside a run}
     */
    public ResponseCache forCheck(dev.assay.check.CheckContext context) {
        if (context.responses() == ResponseCache.NONE) {
            return this;
        }
        return acrossRuns ? context.responses() : context.responses().withinRun();
    }
}
