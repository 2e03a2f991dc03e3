package dev.assay.check.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.check.CheckContext;
import dev.assay.check.Checker;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import dev.assay.transcript.TranscriptEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code told_user}: each listed piece of information occurs in some message of the system under test to the user, as
 * τ²-bench's communicate check reads it: case-insensitive, with the message's commas removed ({@code 1,000} tells
 * {@code 1000}). The messages are the text of every model turn and the final answer. Expected: {@code {"info": ["...",
 * ...]}}. Fails with {@code told_user.missing}, the detail marking each piece told or not.
 *
 * @param info what the user must have been told
 */
record ToldUserChecker(List<String> info) implements Checker {
    static final String NAME = "told_user";
    static final CheckerFactory FACTORY = new BuiltinFactory(NAME, ToldUserChecker::create);

    static ToldUserChecker create(JsonNode node) {
        var expected = Expected.of(NAME, node);
        if (!expected.isObject()) {
            throw expected.invalid("an object {\"info\": [\"...\", ...]}");
        }
        expected.onlyKeys(Set.of("info"));
        return new ToldUserChecker(expected.texts("info", expected.requiredField("info")));
    }

    @Override
    public Verdict check(CheckContext context) {
        var messages = new ArrayList<String>();
        for (TranscriptEvent event : context.transcript().events()) {
            String text = switch (event) {
                case TranscriptEvent.ModelTurn turn -> turn.text();
                case TranscriptEvent.FinalAnswer answer -> answer.text();
                default -> null;
            };
            if (text != null && !text.isBlank()) {
                messages.add(text.toLowerCase(Locale.ROOT).replace(",", ""));
            }
        }
        ObjectNode detail = Json.object();
        ArrayNode listed = detail.putArray("info");
        int missing = 0;
        for (String piece : info) {
            String wanted = piece.toLowerCase(Locale.ROOT);
            boolean told = messages.stream().anyMatch(message -> message.contains(wanted));
            listed.addObject().put("info", piece).put("told", told);
            missing += told ? 0 : 1;
        }
        if (missing == 0) {
            return Verdict.passed(detail);
        }
        return Verdict.failed(
                "told_user.missing", missing + " of " + info.size() + " pieces of information were not told", detail);
    }
}
