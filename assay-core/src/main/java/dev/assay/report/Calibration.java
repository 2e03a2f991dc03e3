package dev.assay.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.result.Item;
import dev.assay.result.Label;
import dev.assay.score.Agreement;
import dev.assay.store.ItemFields;
import dev.assay.store.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How well each judge model agrees with people ({@code assay judges calibrate}, the page): for every {@code judge}
 * check a person labelled, the judge's verdict (each panel member's on its own) against the person's, counted per judge
 * model into an {@link Agreement}. A judge passes a check when its verdict is {@code passed}; a person passes it with
 * the label {@code pass}, or with a score that reaches the check's threshold (the top of the scale without one). Each
 * person's label is one pair.
 *
 * @param byJudgeModel the agreement of each judge model, by its name ({@code openai:gpt-4o-mini})
 * @param labels the labels read, whether or not they were of a judge check
 */
public record Calibration(Map<String, Agreement> byJudgeModel, int labels) {
    public Calibration {
        byJudgeModel = java.util.Collections.unmodifiableMap(new TreeMap<>(byJudgeModel));
    }

    /** {@return the agreement of the judges of {@code runIds} with the labels given to them} */
    public static Calibration of(Store store, List<String> runIds) {
        var pairs = new HashMap<String, Agreement>();
        int count = 0;
        for (String runId : runIds) {
            List<Label> labels = store.listLabels(runId);
            count += labels.size();
            if (labels.isEmpty()) {
                continue;
            }
            Map<String, Item> items = new HashMap<>();
            for (int offset = 0; ; offset += 500) {
                List<Item> page = store.listItems(runId, offset, 500, ItemFields.BRIEF);
                page.forEach(item -> items.put(item.caseId(), item));
                if (page.size() < 500) {
                    break;
                }
            }
            for (Label label : labels) {
                Item item = items.get(label.caseId());
                JsonNode check = item == null
                        ? null
                        : item.checkerDetail().path("checks").path(label.check());
                if (check == null || !check.path("checker").asText().equals("judge")) {
                    continue;
                }
                boolean humanPassed = humanPassed(label, check.path("detail"));
                for (Vote vote : votes(check)) {
                    pairs.merge(
                            vote.judgeModel(),
                            new Agreement(0, 0, 0, 0).plus(vote.passed(), humanPassed),
                            Calibration::sum);
                }
            }
        }
        return new Calibration(pairs, count);
    }

    /** {@return every labelled run's judges' agreement with people: what a report weighs a judge by} */
    public static Calibration ofAllLabels(Store store) {
        return of(store, store.labelledRuns());
    }

    /** One judge's verdict on a check. */
    record Vote(String judgeModel, boolean passed) {}

    /** {@return the verdicts of a {@code judge} check's judges: a panel's members, or its one judge} */
    static List<Vote> votes(JsonNode check) {
        JsonNode detail = check.path("detail");
        var votes = new ArrayList<Vote>();
        if (detail.path("judges").isArray()) {
            for (JsonNode member : detail.path("judges")) {
                if (!member.path("status").asText().equals("error")) {
                    votes.add(new Vote(
                            member.path("judge_model").asText(),
                            member.path("status").asText().equals("passed")));
                }
            }
        } else if (detail.has("judge_model")
                && (check.path("status").asText().equals("passed")
                        || check.path("status").asText().equals("failed")
                        || check.path("status").asText().equals("partial"))) {
            votes.add(new Vote(
                    detail.path("judge_model").asText(),
                    check.path("status").asText().equals("passed")));
        }
        return votes;
    }

    /** {@return whether a person's label passes the check: pass, or a score at the check's bar} */
    static boolean humanPassed(Label label, JsonNode detail) {
        if (label.pass() != null) {
            return label.pass();
        }
        JsonNode threshold = detail.path("threshold");
        JsonNode scale = detail.path("scale");
        double top = scale.isArray() ? scale.get(1).asDouble() : 1;
        return label.score() >= (threshold.isNumber() ? threshold.asDouble() : top);
    }

    private static Agreement sum(Agreement a, Agreement b) {
        return new Agreement(
                a.judgePassHumanPass() + b.judgePassHumanPass(),
                a.judgePassHumanFail() + b.judgePassHumanFail(),
                a.judgeFailHumanPass() + b.judgeFailHumanPass(),
                a.judgeFailHumanFail() + b.judgeFailHumanFail());
    }

    /**
     * {@return the judge models whose kappa lies below {@code minKappa} (or cannot be computed), among {@code used}}
     */
    public List<String> below(double minKappa, java.util.Collection<String> used) {
        return used.stream()
                .filter(byJudgeModel::containsKey)
                .filter(model -> !(byJudgeModel.get(model).kappa() >= minKappa))
                .sorted()
                .toList();
    }

    /** {@return this calibration as {@code assay judges calibrate --format json} and the API show it} */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("labels", labels);
        node.put("interval", "95 %: Wilson score for accuracy, Cohen's large-sample standard error for kappa");
        ObjectNode judges = node.putObject("judges");
        byJudgeModel.forEach((model, agreement) -> {
            ObjectNode judge = judges.putObject(model);
            judge.put("n", agreement.n());
            number(judge, "accuracy", agreement.accuracy());
            judge.set("accuracy_interval", interval(agreement.accuracyInterval()));
            number(judge, "kappa", agreement.kappa());
            number(judge, "kappa_se", agreement.kappaStandardError());
            judge.set("kappa_interval", interval(agreement.kappaInterval()));
            ObjectNode matrix = judge.putObject("confusion");
            matrix.put("judge_pass_human_pass", agreement.judgePassHumanPass());
            matrix.put("judge_pass_human_fail", agreement.judgePassHumanFail());
            matrix.put("judge_fail_human_pass", agreement.judgeFailHumanPass());
            matrix.put("judge_fail_human_fail", agreement.judgeFailHumanFail());
        });
        return node;
    }

    private static void number(ObjectNode node, String field, double value) {
        if (Double.isNaN(value)) {
            node.putNull(field);
        } else {
            node.put(field, value);
        }
    }

    private static JsonNode interval(double[] bounds) {
        return Double.isNaN(bounds[0]) ? Json.object().nullNode() : Json.tree(List.of(bounds[0], bounds[1]));
    }
}
