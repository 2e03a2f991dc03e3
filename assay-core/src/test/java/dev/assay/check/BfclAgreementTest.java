package dev.assay.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.tools.Workspace;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code "match": "bfcl"} agrees with BFCL's AST checker on every output of a corpus written for this test
 * ({@code bfcl-agreement.json}: simple, multiple, parallel and parallel-multiple cases, correct answers and mutations),
 * each carrying the verdict BFCL's rules give it.
 */
class BfclAgreementTest {
    private static final CheckerRegistry REGISTRY = CheckerRegistry.builtins();
    private static final Instant AT = Instant.parse("2026-11-23T00:00:00Z");

    @TempDir
    Path workspace;

    /** One corpus entry judged: what BFCL says and what Assay says. */
    private record Judged(String id, String category, boolean bfcl, Verdict assay) {
        boolean agrees() {
            return bfcl == (assay.status() == Verdict.Status.PASSED);
        }
    }

    @Test
    void assay_gives_bfcls_verdict_on_every_output_of_the_corpus() throws Exception {
        JsonNode corpus = corpus();
        var judged = new ArrayList<Judged>();
        for (JsonNode entry : corpus.get("cases")) {
            judged.add(judge(entry, corpus.get("functions")));
        }

        assertThat(judged)
                .filteredOn(one -> !one.agrees())
                .extracting(one -> one.id() + ": BFCL " + one.bfcl() + ", Assay "
                        + one.assay().status() + " " + one.assay().errorType() + " "
                        + one.assay().message())
                .isEmpty();
        // Every category holds outputs BFCL passes and outputs it fails, so agreement is not a constant verdict.
        Map<String, List<Boolean>> verdicts = new TreeMap<>();
        judged.forEach(one -> verdicts.computeIfAbsent(one.category(), key -> new ArrayList<>())
                .add(one.bfcl()));
        assertThat(verdicts.keySet()).containsExactly("multiple", "parallel", "parallel_multiple", "simple");
        verdicts.values().forEach(list -> assertThat(list).contains(true, false));
        assertThat(judged).hasSizeGreaterThanOrEqualTo(60);
    }

    @Test
    void failures_score_zero_as_bfcl_has_no_partial_credit() throws Exception {
        JsonNode corpus = corpus();
        for (JsonNode entry : corpus.get("cases")) {
            Judged one = judge(entry, corpus.get("functions"));
            if (!one.bfcl()) {
                assertThat(one.assay().score()).as(one.id()).isZero();
                assertThat(one.assay().errorType()).as(one.id()).startsWith("tool_args.");
            }
        }
    }

    @Test
    void assays_own_rules_differ_from_bfcl_where_documented() throws Exception {
        JsonNode corpus = corpus();
        JsonNode entry = null;
        for (JsonNode candidate : corpus.get("cases")) {
            if (candidate.get("id").asText().equals("simple_null_optional")) {
                entry = candidate;
            }
        }
        // Assay's default reads null as "left out" for an argument that may be omitted; BFCL calls it a type error.
        Judged assayRules = judge(entry, corpus.get("functions"), false);
        Judged bfclRules = judge(entry, corpus.get("functions"), true);

        assertThat(assayRules.assay().status()).isEqualTo(Verdict.Status.PASSED);
        assertThat(bfclRules.assay().status()).isEqualTo(Verdict.Status.FAILED);
        assertThat(bfclRules.assay().errorType()).isEqualTo("tool_args.type_error");
    }

    private static JsonNode corpus() throws IOException {
        try (InputStream in = BfclAgreementTest.class.getResourceAsStream("bfcl-agreement.json")) {
            return Json.parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    private Judged judge(JsonNode entry, JsonNode functions) throws InterruptedException {
        return judge(entry, functions, true);
    }

    /** Runs one entry as a case declaring its functions, whose transcript holds the entry's calls in order. */
    private Judged judge(JsonNode entry, JsonNode functions, boolean bfcl) throws InterruptedException {
        ObjectNode attributes = Json.object();
        ArrayNode tools = attributes.putArray("tools");
        entry.get("tools").forEach(name -> tools.add(functions.get(name.asText())));
        var expected = new ArrayList<JsonNode>();
        entry.get("expected")
                .forEach(call -> call.properties().forEach(named -> {
                    ObjectNode one = Json.object().put("tool", named.getKey());
                    one.set("args", named.getValue());
                    if (bfcl) {
                        one.put("match", "bfcl");
                    }
                    expected.add(one);
                }));
        Check check = Check.of("tool_args", expected.size() == 1 ? expected.getFirst() : Json.tree(expected));
        Case evalCase = new Case(
                entry.get("id").asText(),
                "tool",
                "",
                "prompt",
                1.0,
                null,
                List.of(check),
                List.of(),
                List.of(),
                Map.of(),
                attributes,
                null);
        var events = new ArrayList<TranscriptEvent>();
        int id = 0;
        for (JsonNode call : entry.get("output")) {
            for (var named : call.properties()) {
                events.add(new TranscriptEvent.ToolCall(
                        AT, "call_" + ++id, named.getKey(), named.getKey(), named.getValue()));
            }
        }
        Verdict verdict = REGISTRY.create(check)
                .check(CheckContext.of(evalCase, new Transcript(events), new Workspace(workspace)));
        return new Judged(
                entry.get("id").asText(),
                entry.get("category").asText(),
                entry.get("bfcl").asBoolean(),
                verdict);
    }
}
