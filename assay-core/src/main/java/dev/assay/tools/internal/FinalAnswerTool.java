package dev.assay.tools.internal;

import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.util.List;

/** {@code final_answer(answer)}: hands back the answer; the agent loop ends when this tool is called. */
public final class FinalAnswerTool extends BuiltinTool {
    public FinalAnswerTool() {
        super(
                ToolNames.FINAL_ANSWER,
                "Give your final answer to the user; this ends the task.",
                List.of(Param.required("answer", "string", "The complete final answer.")));
    }

    @Override
    ToolResult run(Arguments arguments, Workspace workspace) {
        return ToolResult.ok(arguments.text("answer"));
    }
}
