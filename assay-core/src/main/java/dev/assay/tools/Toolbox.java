package dev.assay.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The tools one {@link ToolProvider} offers a run, and what it holds for them (connections, processes) until the run
 * has ended. Thread-safe.
 */
public interface Toolbox extends AutoCloseable {
    /** A toolbox without tools or a snapshot. */
    Toolbox EMPTY = List::of;

    /** {@return the tools, in the order they are offered} */
    List<Tool> tools();

    /** {@return what the run's configuration snapshot records about these tools (never secrets); null for nothing} */
    default JsonNode snapshot() {
        return null;
    }

    /** Releases what the tools hold; called once the run has ended. Nothing by default. */
    @Override
    default void close() {}
}
