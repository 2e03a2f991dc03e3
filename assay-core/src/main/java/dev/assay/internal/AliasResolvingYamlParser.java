package dev.assay.internal;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.DocumentStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingEndEvent;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.events.SequenceEndEvent;
import org.yaml.snakeyaml.events.SequenceStartEvent;

/**
 * A YAML parser that resolves aliases by replaying the events of their anchor's value, at the alias's position (so
 * lines in problems point at the alias). An anchored value is kept as a range of a log of the events seen while an
 * anchor is open; an alias inside an anchored value is logged expanded, so a later alias of the outer anchor replays a
 * complete value.
 *
 * <p>Expansion is bounded: all aliases of a document together may replay at most {@link #MAX_ALIAS_EVENTS} events and
 * {@link #MAX_ALIAS_CHARACTERS} scalar characters; the alias that crosses a bound is refused with a parse error at its
 * line. A "billion laughs" document therefore fails in a few seconds at most instead of exhausting memory, while
 * ordinary sharing (a rubric, a long prompt or a list reused by many cases) stays far below both bounds.
 */
public final class AliasResolvingYamlParser extends YAMLParser {
    /** The most events (scalars, collection starts and ends) all aliases of one document may replay. */
    static final int MAX_ALIAS_EVENTS = 500_000;
    /** The most scalar characters all aliases of one document may replay. */
    static final long MAX_ALIAS_CHARACTERS = 20_000_000;

    /** An anchor whose collection is still being read: its name, its first event in the log, its depth. */
    private record OpenAnchor(String name, int start, int depth) {}

    /** An anchored value: events {@code start} (inclusive) to {@code end} (exclusive) of the log. */
    private record Range(int start, int end) {}

    private final List<Event> log = new ArrayList<>();
    private final ArrayDeque<OpenAnchor> open = new ArrayDeque<>();
    private final Map<String, Range> anchors = new HashMap<>();
    private final ArrayDeque<Event> replay = new ArrayDeque<>();
    private int depth;
    private long replayedEvents;
    private long replayedCharacters;

    public AliasResolvingYamlParser(
            IOContext context,
            int parserFeatures,
            int yamlFeatures,
            LoaderOptions options,
            ObjectCodec codec,
            Reader reader) {
        super(context, parserFeatures, yamlFeatures, options, codec, reader);
    }

    @Override
    protected Event getEvent() throws IOException {
        Event event = replay.isEmpty() ? super.getEvent() : replay.removeFirst();
        if (event instanceof AliasEvent alias) {
            expand(alias);
            event = replay.removeFirst();
        } else if (event instanceof DocumentStartEvent) {
            // Anchors are local to their document (YAML 1.2, 3.2.2.2).
            anchors.clear();
            log.clear();
        }
        remember(event);
        return event;
    }

    private void expand(AliasEvent alias) throws JsonParseException {
        Range range = anchors.get(alias.getAnchor());
        if (range == null) {
            boolean inside = open.stream().anyMatch(anchor -> anchor.name().equals(alias.getAnchor()));
            throw new JsonParseException(
                    this,
                    inside
                            ? "the alias *" + alias.getAnchor() + " is inside the value of its own anchor"
                            : "the alias *" + alias.getAnchor() + " has no anchor &" + alias.getAnchor() + " before it",
                    _locationFor(alias.getStartMark()));
        }
        replayedEvents += range.end() - range.start();
        for (int index = range.start(); index < range.end(); index++) {
            replayedCharacters += log.get(index) instanceof ScalarEvent scalar
                    ? scalar.getValue().length()
                    : 0;
        }
        if (replayedEvents > MAX_ALIAS_EVENTS || replayedCharacters > MAX_ALIAS_CHARACTERS) {
            throw new JsonParseException(
                    this,
                    "the aliases expand the document beyond " + MAX_ALIAS_EVENTS
                            + " values or " + MAX_ALIAS_CHARACTERS + " characters (nested aliases multiply: is this a"
                            + " \"billion laughs\"?)",
                    _locationFor(alias.getStartMark()));
        }
        for (int index = range.start(); index < range.end(); index++) {
            replay.addLast(at(log.get(index), alias.getStartMark(), alias.getEndMark()));
        }
    }

    /** Logs the event while an anchor is open, opens an anchor it carries, closes the anchors it completes. */
    private void remember(Event event) {
        String anchor = event instanceof NodeEvent node ? node.getAnchor() : null;
        if (anchor != null) {
            open.push(new OpenAnchor(anchor, log.size(), depth));
        }
        if (!open.isEmpty()) {
            log.add(anchor == null ? event : at(event, event.getStartMark(), event.getEndMark()));
        }
        if (event instanceof CollectionStartEvent) {
            depth++;
        } else if (event instanceof CollectionEndEvent) {
            depth--;
        }
        // A scalar closes its anchor at once, a collection when the depth is back to where it opened.
        while (!open.isEmpty() && open.peek().depth() == depth && !(event instanceof CollectionStartEvent)) {
            OpenAnchor done = open.pop();
            anchors.put(done.name(), new Range(done.start(), log.size()));
        }
    }

    /** A copy of a node event at other marks and without its anchor, so a replay neither moves nor re-anchors. */
    private static Event at(Event event, Mark start, Mark end) {
        return switch (event) {
            case ScalarEvent scalar ->
                new ScalarEvent(
                        null,
                        scalar.getTag(),
                        scalar.getImplicit(),
                        scalar.getValue(),
                        start,
                        end,
                        scalar.getScalarStyle());
            case SequenceStartEvent sequence ->
                new SequenceStartEvent(
                        null, sequence.getTag(), sequence.getImplicit(), start, end, sequence.getFlowStyle());
            case MappingStartEvent mapping ->
                new MappingStartEvent(
                        null, mapping.getTag(), mapping.getImplicit(), start, end, mapping.getFlowStyle());
            case SequenceEndEvent ignored -> new SequenceEndEvent(start, end);
            case MappingEndEvent ignored -> new MappingEndEvent(start, end);
            default -> event;
        };
    }
}
