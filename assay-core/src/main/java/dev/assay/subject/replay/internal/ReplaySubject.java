package dev.assay.subject.replay.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.subject.Session;
import dev.assay.subject.Subject;
import dev.assay.subject.SubjectInput;
import dev.assay.tools.ToolNames;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Re-scores recorded transcripts: each case gets the events recorded for it, and its recorded files in its workspace,
 * without calling anything; the engine's checkers then judge as in a live run. A case the recording lacks is skipped
 * ({@code replay.missing_case}). Thread-safe (immutable).
 */
public final class ReplaySubject implements Subject {
    private final Recording recording;
    private final Set<String> toolNames;

    /** @param recording what to replay */
    public ReplaySubject(Recording recording) {
        this.recording = recording;
        var names = new LinkedHashSet<String>();
        // Prerequisites were decided when the transcripts were recorded; a tool the recorded target offered, or
        // that a transcript shows in use, must not make a recorded case skip now.
        names.addAll(ToolNames.BUILTIN);
        recording.toolNames().forEach(name -> names.add(ToolNames.canonical(name)));
        recording
                .cases()
                .values()
                .forEach(recorded -> recorded.transcript().toolCalls().forEach(call -> names.add(call.tool())));
        this.toolNames = Set.copyOf(names);
    }

    @Override
    public String name() {
        return "replay:" + recording.source().getFileName();
    }

    @Override
    public Set<String> toolNames() {
        return toolNames;
    }

    /** A case's declared functions were offered when it was recorded, whether or not the model called them. */
    @Override
    public Set<String> toolNames(SubjectInput input) {
        var names = new LinkedHashSet<>(toolNames);
        input.declaredTools().functions().forEach(function -> names.add(function.name()));
        return names;
    }

    @Override
    public Optional<Problem> unavailable(SubjectInput input) {
        if (recording.cases().containsKey(input.caseId())) {
            return Optional.empty();
        }
        return Optional.of(Problem.of("replay.missing_case", "the recording has no transcript for this case")
                .withDetail("case_id", input.caseId())
                .withDetail("file", recording.source().toString()));
    }

    @Override
    public JsonNode describe() {
        ObjectNode node = Json.object();
        node.put("type", "replay");
        node.put("file", recording.source().toString());
        node.put("recorded_cases", recording.cases().size());
        node.set("tools", Json.tree(toolNames.stream().sorted().toList()));
        return node;
    }

    @Override
    public Transcript run(SubjectInput input, Session session) {
        Recording.Recorded recorded = recording.cases().get(input.caseId());
        if (recorded == null) {
            session.transcript()
                    .add(new TranscriptEvent.SubjectError(
                            Instant.now(), unavailable(input).orElseThrow()));
            return session.transcript().build();
        }
        for (var file : recorded.workspaceFiles().entrySet()) {
            try {
                Path path = session.workspace().resolve(rebase(file.getKey(), recorded, session));
                Files.createDirectories(path.getParent());
                Files.writeString(path, rebase(file.getValue(), recorded, session), StandardCharsets.UTF_8);
            } catch (AssayException e) {
                session.transcript().add(new TranscriptEvent.SubjectError(Instant.now(), e.problem()));
                return session.transcript().build();
            } catch (IOException e) {
                session.transcript()
                        .add(new TranscriptEvent.SubjectError(
                                Instant.now(),
                                Problem.of(
                                        "workspace.write_failed",
                                        "could not write recorded file " + file.getKey() + ": " + e.getMessage())));
                return session.transcript().build();
            }
        }
        JsonNode events = Json.parse(rebase(Json.write(recorded.transcript().toJson()), recorded, session));
        Transcript.fromJson(events).events().forEach(session.transcript()::add);
        return session.transcript().build();
    }

    /** Paths and arguments recorded under the old run's id ({@code eval/<run_id>/...}) move to the new run's. */
    private static String rebase(String text, Recording.Recorded recorded, Session session) {
        return recorded.runId().isEmpty() ? text : text.replace(recorded.runId(), session.runId());
    }
}
