package dev.assay.check;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.tools.Workspace;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import dev.assay.transcript.TranscriptEvent.FinalAnswer;
import dev.assay.transcript.TranscriptEvent.ModelTurn;
import dev.assay.transcript.TranscriptEvent.ToolCall;
import dev.assay.transcript.TranscriptEvent.ToolOutput;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** Builds checkers through the real registry and judges hand-made transcripts, as the engine does. */
public final class Judge {
    private static final CheckerRegistry REGISTRY = CheckerRegistry.builtins();
    private static final Instant AT = Instant.parse("2026-11-22T00:00:00Z");

    private Judge() {}

    public static Checker checker(String name, String expectedJson) {
        return REGISTRY.create(Check.of(name, Json.parse(expectedJson)));
    }

    public static Verdict judge(String name, String expectedJson, Transcript transcript, Workspace workspace) {
        Check check = Check.of(name, Json.parse(expectedJson));
        Case evalCase = Case.of("case_1", "tool", "prompt", check);
        try {
            return REGISTRY.create(check).check(CheckContext.of(evalCase, transcript, workspace));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    public static Verdict judge(String name, String expectedJson, Transcript transcript, Path workspaceRoot) {
        return judge(name, expectedJson, transcript, new Workspace(workspaceRoot));
    }

    /** Judges a final answer, with a throw-away workspace. */
    public static Verdict judgeAnswer(String name, String expectedJson, String answer, Path workspaceRoot) {
        return judge(name, expectedJson, answer(answer), workspaceRoot);
    }

    public static Transcript answer(String text) {
        return new Transcript(List.of(new ModelTurn(AT, text, "", null), new FinalAnswer(AT, text)));
    }

    public static Transcript transcript(TranscriptEvent... events) {
        return new Transcript(List.of(events));
    }

    public static ToolCall call(String id, String tool, String argumentsJson) {
        JsonNode arguments = Json.parse(argumentsJson);
        return new ToolCall(AT, id, dev.assay.tools.ToolNames.canonical(tool), tool, arguments);
    }

    public static ToolOutput output(String id, String tool, boolean ok) {
        return new ToolOutput(AT, id, tool, ok, ok ? "done" : "", ok ? null : dev.assay.Problem.of("tool.failed", "x"));
    }
}
