package dev.assay.report;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.run.Engine;
import dev.assay.store.Store;
import dev.assay.subject.replay.internal.Recording;
import dev.assay.tools.Workspace;
import dev.assay.transcript.Transcript;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes a stored run's transcripts as a replay file (JSONL): a header line {@code {"tool_names": [...]}}, then one
 * {@link Recording.Recorded} per judged item. Skipped and cancelled items recorded nothing and are left out, so a
 * replay skips them too. Stateless.
 */
public final class TranscriptExport {
    /** Files larger than this are left out of {@code workspace_files}; checkers judge text artifacts. */
    static final long MAX_FILE_BYTES = 1 << 20;

    private TranscriptExport() {}

    /**
     * @param workspaceRoot where the run's workspaces were created ({@code <root>/<run id>/<seq>_<case id>}); the files
     *     of kept workspaces are exported too. Null to export transcripts only
     * @return how many items were written
     * @throws dev.assay.AssayException {@code run.not_found} when there is no such run
     */
    public static int write(Store store, String runId, Path workspaceRoot, Writer out) throws IOException {
        RunReport report = RunReport.load(store, runId);
        out.write(Json.write(
                Json.object().set("tool_names", Json.tree(report.run().toolSnapshot()))));
        out.write('\n');
        int written = 0;
        for (Item item : report.items()) {
            if (item.status() == ItemStatus.SKIPPED || item.status() == ItemStatus.CANCELLED) {
                continue;
            }
            Map<String, String> files = workspaceRoot == null
                    ? Map.of()
                    : files(Engine.caseDirectory(workspaceRoot, runId, item.seq(), item.caseId()));
            var recorded = new Recording.Recorded(item.caseId(), runId, Transcript.fromJson(item.transcript()), files);
            out.write(Json.write(recorded.toJson()));
            out.write('\n');
            written++;
        }
        out.flush();
        return written;
    }

    private static Map<String, String> files(Path directory) throws IOException {
        var files = new LinkedHashMap<String, String>();
        if (!Files.isDirectory(directory)) {
            return files;
        }
        var workspace = new Workspace(directory);
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.filter(Files::isRegularFile).sorted().toList()) {
                String relative = workspace.relativize(path);
                if (!insideWorkspace(workspace, relative) || Files.size(path) > MAX_FILE_BYTES) {
                    continue;
                }
                try {
                    files.put(relative, Files.readString(path, StandardCharsets.UTF_8));
                } catch (MalformedInputException binary) {
                    // Binary artifacts cannot travel in a JSON string; checkers read text.
                }
            }
        }
        return files;
    }

    /**
     * A model can leave a link to a host file in its workspace (execute_command runs {@code ln -s}); the export must
     * not carry that file's content out, so paths are resolved as tools and checkers resolve them.
     */
    private static boolean insideWorkspace(Workspace workspace, String relative) {
        try {
            workspace.resolve(relative);
            return true;
        } catch (AssayException escape) {
            return false;
        }
    }
}
