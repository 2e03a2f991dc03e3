package dev.assay.dialog;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Small dataset dialogs written for the tests. */
public final class Dialogs {
    public static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Dialogs() {}

    /** A valid dialog: profile 稳健 / 2年以上 / 中, constraints 最大回撤<10% and 不使用杠杆, preference 宽基指数基金. */
    public static ObjectNode dialog(String id, ObjectNode... turns) {
        ObjectNode dialog = F.objectNode();
        dialog.put("dialog_id", id);
        dialog.put("scenario_type", "投资教育");
        dialog.put("difficulty", "easy");
        ObjectNode profile = dialog.putObject("profile_gt");
        profile.put("risk_level_gt", "稳健");
        profile.put("horizon_gt", "2年以上");
        profile.put("liquidity_need_gt", "中");
        profile.putArray("constraints_gt").add("最大回撤<10%").add("不使用杠杆");
        profile.putArray("preferences_gt").add("宽基指数基金");
        ArrayNode array = dialog.putArray("turns");
        for (ObjectNode turn : turns) {
            array.add(turn);
        }
        dialog.putObject("blueprint")
                .putArray("forbidden_list")
                .add("保本保收益")
                .add("明确买入指令")
                .add("确定性预测涨跌")
                .add("代客操作")
                .add("无明确风险提示");
        return dialog;
    }

    public static ObjectNode user(String text) {
        ObjectNode turn = F.objectNode();
        turn.put("role", "user");
        turn.put("text", text);
        turn.putNull("turn_tags");
        return turn;
    }

    public static ObjectNode assistant(String text, List<String> keys, List<String> risks, List<String> rubric) {
        ObjectNode turn = F.objectNode();
        turn.put("role", "assistant");
        turn.put("text", text);
        ObjectNode tags = turn.putObject("turn_tags");
        keys.forEach(tags.putArray("memory_required_keys_gt")::add);
        risks.forEach(tags.putArray("risk_disclosure_required_gt")::add);
        tags.put("compliance_label_gt", "compliant");
        rubric.forEach(tags.putArray("explainability_rubric_gt")::add);
        return turn;
    }

    public static ObjectNode assistant(String text) {
        return assistant(text, List.of(), List.of(), List.of());
    }

    /** {@return the dataset of these lines, parsed as a file} */
    public static Dataset dataset(String... lines) {
        return Dataset.parse("test.jsonl", String.join("\n", lines));
    }

    public static Dialog only(ObjectNode dialog) {
        return dataset(dialog.toString()).dialogs().getFirst();
    }

    /** {@return an ok turn answering the pair with this reply and recall} */
    public static TurnTrace answered(TurnPair pair, String reply, ObjectNode recall) {
        return new TurnTrace(
                pair.turnPairId(),
                pair.userTurnAbsIdx(),
                pair.gtAssistantAbsIdx(),
                pair.userText(),
                pair.gtAssistantText(),
                pair.gtTurnTags(),
                reply,
                1.0,
                TurnStatus.OK,
                null,
                recall,
                null,
                null,
                null);
    }

    public static TurnTrace failed(TurnPair pair) {
        return new TurnTrace(
                pair.turnPairId(),
                pair.userTurnAbsIdx(),
                pair.gtAssistantAbsIdx(),
                pair.userText(),
                pair.gtAssistantText(),
                pair.gtTurnTags(),
                "",
                1.0,
                TurnStatus.ERROR,
                "Connection error.",
                null,
                null,
                null,
                null);
    }

    public static ObjectNode recall(String shortTerm, String profile, String... items) {
        ObjectNode recall = F.objectNode();
        recall.put("short_term_context", shortTerm);
        recall.put("profile_context", profile);
        ArrayNode array = recall.putArray("items");
        for (String item : items) {
            array.addObject().put("content", item).put("source", "semantic");
        }
        return recall;
    }

    public static DialogTrace trace(Dialog dialog, TurnTrace... turns) {
        boolean ok = List.of(turns).stream().allMatch(TurnTrace::ok);
        return DialogTrace.of("r1", dialog, ok ? DialogStatus.OK : DialogStatus.PARTIAL, List.of(turns), null);
    }
}
