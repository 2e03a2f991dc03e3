package dev.assay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import dev.assay.result.Item;
import dev.assay.result.Label;
import dev.assay.store.ItemFields;
import dev.assay.store.RunIds;
import dev.assay.store.Store;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code assay review RUN}: a person labels a run's checks, one after the other, from the keyboard: each check shows
 * the item's prompt and answer and the machine's verdict (every judge's of a panel), and a key and Enter labels it.
 * Labels are kept in the database beside the verdicts, never over them ({@code assay judges calibrate} weighs the
 * judges by them).
 */
@Command(
        name = "review",
        mixinStandardHelpOptions = true,
        description = "Label a run's checks by hand, from the keyboard: p pass, f fail, s N a score, n TEXT a note for "
                + "the next label, k skip, q quit (each followed by Enter). Labels sit beside the machine's verdicts.")
final class ReviewCommand implements Callable<Integer>, EnvironmentFactory.NeedsEnvironment {
    private static final int PAGE = 200;

    @Spec
    CommandSpec spec;

    @Mixin
    DatabaseOption database;

    @Parameters(index = "0", paramLabel = "RUN", description = "The run to review (id or prefix).")
    String run;

    @Option(names = "--checker", paramLabel = "<name>", description = "Only checks of this checker (e.g. judge).")
    String checker;

    @Option(names = "--disagreement", description = "Only checks whose judges disagree (a panel split on the verdict).")
    boolean disagreement;

    @Option(
            names = "--low-confidence",
            description = "Only checks a judge scored near the middle of its scale (a normalized score from 0.25 to "
                    + "0.75), or on which its panel split.")
    boolean lowConfidence;

    @Option(names = "--by", paramLabel = "<name>", description = "Who labels (default: $USER).")
    String by;

    Map<String, String> env = Map.of();

    @Override
    public void environment(Map<String, String> environment) {
        env = environment;
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        String reviewer = by != null && !by.isBlank()
                ? by.strip()
                : env.getOrDefault("USER", "").isBlank() ? "unknown" : env.get("USER");
        var input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int labelled = 0;
        int shown = 0;
        try (Store store = database.open()) {
            String runId = RunIds.resolve(store, run);
            for (int offset = 0; ; offset += PAGE) {
                List<Item> page = store.listItems(runId, offset, PAGE, ItemFields.BRIEF);
                for (Item item : page) {
                    JsonNode checks = item.checkerDetail().path("checks");
                    for (int index = 0; index < checks.size(); index++) {
                        JsonNode check = checks.get(index);
                        if (!selected(check)) {
                            continue;
                        }
                        shown++;
                        show(out, item, index, check, store.listLabels(runId));
                        ReviewAction action = ask(out, input, store, item, index, reviewer);
                        if (action == ReviewAction.QUIT) {
                            out.printf("%d label(s) given; stopped%n", labelled);
                            return ExitCodes.OK;
                        }
                        labelled += action == ReviewAction.LABELLED ? 1 : 0;
                    }
                }
                if (page.size() < PAGE) {
                    break;
                }
            }
        }
        out.printf("%d label(s) given, %d check(s) shown%n", labelled, shown);
        return ExitCodes.OK;
    }

    private enum ReviewAction {
        LABELLED,
        SKIPPED,
        QUIT
    }

    private boolean selected(JsonNode check) {
        if (checker != null && !check.path("checker").asText().equals(checker)) {
            return false;
        }
        JsonNode detail = check.path("detail");
        boolean split = detail.path("disagreement").asBoolean(false);
        if (disagreement && !split) {
            return false;
        }
        double normalized = detail.path("normalized_score").asDouble(Double.NaN);
        return !lowConfidence || split || (normalized >= 0.25 && normalized <= 0.75);
    }

    private static void show(PrintWriter out, Item item, int index, JsonNode check, List<Label> labels) {
        out.println();
        out.printf(
                "── %s, check %d (%s)%n",
                TerminalText.line(item.caseId()), index, check.path("checker").asText());
        out.println("prompt: " + item.prompt());
        out.println("answer: " + item.finalAnswer());
        out.printf(
                "machine: %s%s%n",
                check.path("status").asText(),
                check.path("message").asText("").isEmpty()
                        ? ""
                        : " (" + check.path("message").asText() + ")");
        JsonNode detail = check.path("detail");
        for (JsonNode judge : detail.path("judges")) {
            out.printf(
                    "  judge %s (%s): %s, score %s: %s%n",
                    judge.path("judge").asText(),
                    judge.path("judge_model").asText(),
                    judge.path("status").asText(),
                    judge.path("score").asText("-"),
                    TerminalText.line(judge.path("reasoning").asText("")));
        }
        if (detail.has("reasoning")) {
            out.printf(
                    "  judge %s: score %s: %s%n",
                    detail.path("judge_model").asText(),
                    detail.path("score").asText("-"),
                    TerminalText.line(detail.path("reasoning").asText()));
        }
        labels.stream()
                .filter(label -> label.caseId().equals(item.caseId()) && label.check() == index)
                .forEach(label -> out.printf("  labelled by %s: %s%n", TerminalText.line(label.by()), shown(label)));
    }

    private static String shown(Label label) {
        String verdict = label.pass() == null ? "" : label.pass() ? "pass" : "fail";
        String score = label.score() == null ? "" : (verdict.isEmpty() ? "" : ", ") + "score " + label.score();
        return verdict + score + (label.note().isEmpty() ? "" : " (" + TerminalText.line(label.note()) + ")");
    }

    private static ReviewAction ask(
            PrintWriter out, BufferedReader input, Store store, Item item, int index, String reviewer)
            throws IOException {
        String note = "";
        while (true) {
            out.print("[p]ass [f]ail [s N] score [n TEXT] note [k] skip [q] quit > ");
            out.flush();
            String line = input.readLine();
            if (line == null) {
                return ReviewAction.QUIT;
            }
            String given = line.strip();
            String key = given.isEmpty() ? "" : given.substring(0, 1).toLowerCase(Locale.ROOT);
            String rest = given.length() > 1 ? given.substring(1).strip() : "";
            Boolean pass = null;
            Double score = null;
            switch (key) {
                case "q" -> {
                    return ReviewAction.QUIT;
                }
                case "k" -> {
                    return ReviewAction.SKIPPED;
                }
                case "n" -> {
                    note = rest;
                    continue;
                }
                case "p" -> pass = true;
                case "f" -> pass = false;
                case "s" -> {
                    try {
                        score = Double.parseDouble(rest);
                    } catch (NumberFormatException e) {
                        out.println("a score is a number: s 4");
                        continue;
                    }
                }
                default -> {
                    out.println("unknown key '" + TerminalText.line(given) + "'");
                    continue;
                }
            }
            try {
                store.saveLabel(Label.of(
                        item, index, pass, score, note, reviewer, Instant.now().truncatedTo(ChronoUnit.MILLIS)));
            } catch (AssayException invalid) {
                out.println(invalid.problem().message());
                continue;
            }
            return ReviewAction.LABELLED;
        }
    }
}
