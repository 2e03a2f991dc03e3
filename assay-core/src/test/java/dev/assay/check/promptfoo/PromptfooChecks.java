package dev.assay.check.promptfoo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.Json;
import dev.assay.cases.Case;
import dev.assay.cases.Check;
import dev.assay.check.CheckContext;
import dev.assay.check.CheckerFactory;
import dev.assay.check.Verdict;
import dev.assay.check.promptfoo.internal.PromptfooCheckerFactory;
import dev.assay.transcript.Transcript;
import dev.assay.transcript.TranscriptEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Judges one promptfoo assertion of an answer, as the tests of this package need it. */
public final class PromptfooChecks {
    private PromptfooChecks() {}

    /** {@return the case a loader would make: the check, and the test's vars and rendered prompt} */
    public static Case promptfooCase(String assertion, ObjectNode attributes) {
        ObjectNode expected = Json.object();
        expected.set("assertion", Json.parse(assertion));
        Check check = Check.of(PromptfooCheckerFactory.NAME, expected);
        return new Case(
                "t1",
                "common",
                "",
                "What is the capital of France?",
                1,
                null,
                List.of(check),
                List.of(),
                List.of(),
                Map.of(),
                attributes,
                null);
    }

    public static Verdict judge(CheckerFactory factory, String assertion, String output) throws InterruptedException {
        return judge(factory, assertion, output, Json.object(), null, List.of());
    }

    public static Verdict judge(
            CheckerFactory factory,
            String assertion,
            String output,
            ObjectNode attributes,
            Duration subjectTime,
            List<TranscriptEvent> before)
            throws InterruptedException {
        Case evalCase = promptfooCase(assertion, attributes);
        var events = new java.util.ArrayList<TranscriptEvent>(before);
        events.add(new TranscriptEvent.FinalAnswer(Instant.EPOCH, output));
        var transcript = new Transcript(events);
        var context = CheckContext.of(evalCase, transcript, null).withSubjectTime(subjectTime);
        JsonNode expected = evalCase.checks().getFirst().expected();
        return factory.create(expected).check(context);
    }
}
