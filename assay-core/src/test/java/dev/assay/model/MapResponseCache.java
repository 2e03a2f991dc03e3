package dev.assay.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Answers kept as trees in a map, with the keys it was asked for: a cache for tests. Not thread-safe. */
public final class MapResponseCache implements ResponseCache {
    private final boolean looksUp;
    private final Map<String, JsonNode> answers = new HashMap<>();
    private final List<String> asked = new ArrayList<>();

    /** @param looksUp whether it finds what it keeps, or only keeps answers (a new run's cache) */
    public MapResponseCache(boolean looksUp) {
        this.looksUp = looksUp;
    }

    public Map<String, JsonNode> answers() {
        return answers;
    }

    public List<String> asked() {
        return asked;
    }

    @Override
    public Optional<JsonNode> find(String key) {
        asked.add(key);
        return looksUp ? Optional.ofNullable(answers.get(key)) : Optional.empty();
    }

    @Override
    public void keep(String key, JsonNode answer) {
        answers.put(key, answer);
    }

    @Override
    public boolean looksUp() {
        return looksUp;
    }

    @Override
    public ResponseCache withinRun() {
        return this;
    }
}
