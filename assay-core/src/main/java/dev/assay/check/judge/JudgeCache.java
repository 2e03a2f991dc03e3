package dev.assay.check.judge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Judge answers by request hash, one small file each ({@code <dir>/<hash>.txt}), so re-scoring a run with the same
 * judge, prompt and answers makes no model call. Only answers that parsed are stored (docs/judge.md, "Cache": never
 * cache errors or empty responses). Thread-safe and safe across processes: files are written whole, then moved into
 * place.
 */
public final class JudgeCache {
    private static final Pattern KEY = Pattern.compile("[0-9a-f]{64}");

    private final Path directory;

    private JudgeCache(Path directory) {
        this.directory = directory;
    }

    /** {@return a cache in {@code directory}} (created when first written), e.g. {@code $ASSAY_HOME/cache/judge} */
    public static JudgeCache in(Path directory) {
        return new JudgeCache(directory);
    }

    /** {@return a cache that stores nothing} */
    public static JudgeCache disabled() {
        return new JudgeCache(null);
    }

    Optional<String> get(String key) {
        if (directory == null) {
            return Optional.empty();
        }
        Path file = file(key);
        try {
            return Files.isRegularFile(file)
                    ? Optional.of(Files.readString(file, StandardCharsets.UTF_8))
                    : Optional.empty();
        } catch (IOException e) {
            // An unreadable entry is a miss: the judge is asked again and the entry rewritten.
            return Optional.empty();
        }
    }

    void put(String key, String answer) {
        if (directory == null || answer == null || answer.isBlank()) {
            return;
        }
        Path file = file(key);
        try {
            Files.createDirectories(directory);
            Path temp = Files.createTempFile(directory, key, ".tmp");
            Files.writeString(temp, answer, StandardCharsets.UTF_8);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            // The cache only saves money; a full disk must not change a verdict.
        }
    }

    private Path file(String key) {
        if (!KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("a cache key is a hex SHA-256, got " + key);
        }
        return directory.resolve(key + ".txt");
    }
}
