package dev.assay.tools;

import java.util.List;

/** {@code final_answer(answer)}: hands back the answer; the agent loop ends when this tool is called. */
final class FinalAnswerTool extends BuiltinTool {
    FinalAnswerTool() {
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
