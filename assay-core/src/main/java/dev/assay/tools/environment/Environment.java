package dev.assay.tools.environment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolResult;
import java.util.List;

/**
 * One running environment: a fresh server process that belongs to one trial (or to one state comparison). Its tools are
 * offered under their own names; {@link #state()} reads its state resource. Thread-safe; close it when the trial ends,
 * which stops the process and everything it started.
 */
public interface Environment extends AutoCloseable {
    /** {@return the server's tools, each under the name the server gives it} */
    List<Tool> tools();

    /**
     * {@return what calling the tool {@code name} with {@code arguments} gave}: a failed result for an unknown tool, a
     * tool's own error or a server that died; never throws for what the server does
     */
    ToolResult call(String name, JsonNode arguments) throws InterruptedException;

    /**
     * {@return the environment's state now: the text of its state resource, read as JSON}
     *
     * @throws dev.assay.AssayException {@code environment.died} when the server is gone, {@code environment.timeout}
     *     when it does not answer in time, {@code environment.bad_state} when the resource is missing or not JSON
     */
    JsonNode state() throws InterruptedException;

    /** Stops the server and everything it started; never throws. */
    @Override
    void close();
}
