package dev.assay.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.dialog.Dataset;
import dev.assay.dialog.DialogRunConfig;
import dev.assay.dialog.DialogSubject;
import dev.assay.dialog.DialogWorkload;
import dev.assay.dialog.TurnResponse;
import dev.assay.run.Engine;
import dev.assay.run.RunListener;
import dev.assay.run.ScoreOptions;
import dev.assay.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A dialog run made by the engine against a scripted agent, as {@code assay dialog run} makes it. Dialog {@code d1} has
 * two turns: the first answer contains an {@code <img onerror>} tag and reports a long-term memory item as its recall,
 * the second turn fails. Dialog {@code d2} is answered plainly, and the third dataset line is not JSON (skipped,
 * {@code invalid_json}).
 */
final class DialogRuns {
    static final String ANSWER = "<img src=x onerror=\"window.__assayDialogXss = 1\">建议分散投资宽基指数基金，注意波动风险";
    static final String RECALLED = "用户风险偏好稳健，偏好宽基指数基金";
    static final String FAILURE = "scripted agent unavailable";

    private DialogRuns() {}

    /** {@return the stored run's id} */
    static String store(Store store, Path runDir, String runId) {
        Dataset dataset = Dataset.parse(
                "data/advisor.jsonl",
                String.join(
                        "\n",
                        dialog("d1", "我想买点基金", "那明天呢？").toString(),
                        dialog("d2", "我的风险偏好是什么？").toString(),
                        "garbage"));
        var config = new DialogRunConfig(
                runId,
                "data/advisor.jsonl",
                "scripted-agent",
                "",
                1,
                Duration.ofSeconds(5),
                0,
                ScoreOptions.defaults(),
                null);
        var workload = new DialogWorkload(dataset, new ScriptedAgent(), config, runDir, Optional.empty(), "", null);
        try {
            return new Engine(store).run(workload, RunListener.NONE).runId();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** {@return a dataset line: a one-turn dialog whose ground truth asks for a risk disclosure} */
    static String oneTurn(String id) {
        ObjectNode dialog = Json.object().put("dialog_id", id).put("scenario_type", "投资教育");
        dialog.putObject("profile_gt").put("risk_level_gt", "稳健");
        var turns = dialog.putArray("turns");
        turns.addObject().put("role", "user").put("text", id + " 问").putNull("turn_tags");
        ObjectNode assistant = turns.addObject().put("role", "assistant").put("text", "参考回答");
        assistant.putObject("turn_tags").putArray("risk_disclosure_required_gt").add("波动风险");
        dialog.putObject("blueprint");
        return dialog.toString();
    }

    /** A dialog with profile 稳健 and one assistant turn (with ground-truth tags) per user text. */
    private static ObjectNode dialog(String id, String... userTexts) {
        ObjectNode dialog = Json.object();
        dialog.put("dialog_id", id);
        dialog.put("scenario_type", "投资教育");
        ObjectNode profile = dialog.putObject("profile_gt");
        profile.put("risk_level_gt", "稳健");
        profile.put("horizon_gt", "2年以上");
        profile.put("liquidity_need_gt", "中");
        profile.putArray("constraints_gt").add("不使用杠杆");
        profile.putArray("preferences_gt").add("宽基指数基金");
        var turns = dialog.putArray("turns");
        for (String text : userTexts) {
            turns.addObject().put("role", "user").put("text", text).putNull("turn_tags");
            ObjectNode assistant = turns.addObject().put("role", "assistant").put("text", "参考回答");
            ObjectNode tags = assistant.putObject("turn_tags");
            tags.putArray("memory_required_keys_gt").add("profile_gt.risk_level_gt");
            tags.putArray("risk_disclosure_required_gt").add("波动风险");
            tags.put("compliance_label_gt", "compliant");
            tags.putArray("explainability_rubric_gt").add("信息依据");
        }
        dialog.putObject("blueprint").putArray("forbidden_list").add("保本保收益");
        return dialog;
    }

    /** Answers each turn; a second turn in a dialog fails. */
    private static final class ScriptedAgent implements DialogSubject {
        @Override
        public String name() {
            return "scripted-agent";
        }

        @Override
        public Session open(String sessionId, String userId) {
            int[] turn = {0};
            return (userText, timeout) -> {
                turn[0]++;
                if (turn[0] == 2) {
                    throw new IllegalStateException(FAILURE);
                }
                ObjectNode recall = Json.object().put("short_term_context", "").put("profile_context", "");
                if (sessionId.endsWith("d1")) {
                    recall.putArray("items")
                            .addObject()
                            .put("source", "long_term")
                            .put("content", RECALLED);
                    return new TurnResponse(ANSWER, recall, null, null, null);
                }
                recall.putArray("items");
                return new TurnResponse("您的风险偏好是稳健型。", recall, null, null, null);
            };
        }
    }
}
