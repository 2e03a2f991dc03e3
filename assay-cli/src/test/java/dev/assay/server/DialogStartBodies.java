package dev.assay.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.run.EvalSpec;
import java.nio.file.Path;

/** The API's dialog start body ({@link DialogStartBody}, the server's own) for the CLI's tests, which hold both. */
public final class DialogStartBodies {
    private DialogStartBodies() {}

    /**
     * {@return the run {@code body} describes, as a server started with {@code --datasets datasetsDirectory} resolves
     * it, its reference files going to {@code runDirectory}}
     */
    public static EvalSpec spec(JsonNode body, Path datasetsDirectory, Path runDirectory) {
        return DialogStartBody.parse(body, new Datasets(datasetsDirectory), "ASSAY_TOKEN")
                .spec(runDirectory);
    }
}
