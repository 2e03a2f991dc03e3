package dev.assay.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cases.SuiteSnapshots;
import dev.assay.cost.CostTally;
import dev.assay.report.internal.StoredItems;
import dev.assay.result.Counts;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import dev.assay.result.Run;
import dev.assay.run.EvalSpec;
import dev.assay.run.HeadToHead;
import dev.assay.score.Reducer;
import dev.assay.score.Scores;
import dev.assay.score.Spread;
import dev.assay.score.Weights;
import dev.assay.score.internal.PassAtK;
import dev.assay.score.internal.ScoreTally;
import dev.assay.store.CaseSetSnapshot;
import dev.assay.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A run with all its items: what reporters write. The figures every format shows (spreads, counts, coverage, pass@k)
 * are computed together on the first use of any of them, in one pass over the items, and kept: a large run's items are
 * read from the store again for every pass. So asking for one figure computes them all, and one that cannot be computed
 * fails them all. Thread-safe.
 */
public final class RunReport {
    private final Run run;
    private final List<Item> items;
    private final Map<String, List<String>> caseTags;
    private Map<String, Spread> spreads;
    private Map<String, Counts> countsByDimension;
    private Coverage coverage;
    private Map<Integer, Double> passAtK;
    private Map<Integer, Double> passHatK;
    private Map<String, SampleSpread> sampleSpreads;
    private Intervals intervals;
    private final Supplier<Map<String, Case>> storedCases;
    private Map<String, Case> cases;
    private CostTally cost;
    private volatile int samples;
    private Matrix matrix;
    private HeadToHead.Summary headToHead;
    private final Supplier<Calibration> calibration;
    private List<String> judgeWarnings;

    /**
     * @param run the run record
     * @param items its items in selection order; those of a report {@linkplain #load loaded} from the store are read
     *     from it a page at a time as they are used, so that reporters that go through them in order need the memory of
     *     one page
     * @param caseTags case id to the case's tags, for the coverage section; empty when the case set is unknown. Only
     *     the cases that have tags are kept: the others count as untagged, and a large run's ids are not held for them
     */
    public RunReport(Run run, List<Item> items, Map<String, List<String>> caseTags) {
        this(run, items, caseTags, Map::of, () -> new Calibration(Map.of(), 0));
    }

    private RunReport(
            Run run,
            List<Item> items,
            Map<String, List<String>> caseTags,
            Supplier<Map<String, Case>> storedCases,
            Supplier<Calibration> calibration) {
        this.storedCases = storedCases;
        this.calibration = calibration;
        this.run = run;
        this.items = items instanceof StoredItems stored ? stored : List.copyOf(items);
        var tags = new LinkedHashMap<String, List<String>>();
        caseTags.forEach((id, list) -> {
            if (!list.isEmpty()) {
                tags.put(id, List.copyOf(list));
            }
        });
        this.caseTags = Collections.unmodifiableMap(tags);
    }

    /**
     * {@return the run's stored cases by id, in their order, read from the store on the first call}: for a format that
     * shows what a case held (a promptfoo config's vars); empty for a report not loaded from a store, or when the run's
     * case set is unknown. Holds every case of the run in memory.
     */
    public synchronized Map<String, Case> cases() {
        if (cases == null) {
            cases = storedCases.get();
        }
        return cases;
    }

    /** {@return the run record} */
    public Run run() {
        return run;
    }

    /** {@return the items in selection order, read from the store page by page where it holds them} */
    public List<Item> items() {
        return items;
    }

    /** {@return case id to the case's tags, for the cases that have any; empty when the case set is unknown} */
    public Map<String, List<String>> caseTags() {
        return caseTags;
    }

    /**
     * {@return the items without their transcripts (each JSON null) where they are read from the store, else the items}
     * A transcript is most of an item's stored text, and every pass over a large run but the one writing transcripts
     * reads several times faster without them.
     */
    public List<Item> briefItems() {
        return items instanceof StoredItems stored ? stored.withoutTranscripts() : items;
    }

    /**
     * {@return the run's cost: in all, by role, by dimension and by case} Each item's is the one it kept when it ended
     * ({@link CostTally}), so that it reads the same whatever the price table says now.
     */
    public synchronized CostTally cost() {
        if (cost == null) {
            EvalSpec spec = EvalSpec.of(run);
            var tally = new CostTally(
                    run.modelName(), spec.limits().prices(), spec.limits().samples());
            briefItems().forEach(tally::add);
            cost = tally;
        }
        return cost;
    }

    /**
     * Writes the run's cost as report.json holds it ({@link CostTally#toJson} with {@code by_case} before
     * {@code prices_taken_on}), the cases' costs streamed from the items: a million cases in the memory of one.
     */
    public void writeCost(JsonGenerator json) throws IOException {
        CostTally tally = cost();
        ObjectNode node = tally.toJson();
        JsonNode takenOn = node.remove("prices_taken_on");
        json.writeStartObject();
        for (var field : node.properties()) {
            json.writeFieldName(field.getKey());
            json.writeTree(field.getValue());
        }
        json.writeObjectFieldStart("by_case");
        try {
            tally.eachCase(briefItems(), (caseId, spent) -> {
                try {
                    json.writeFieldName(caseId);
                    json.writeTree(CostTally.brief(spent));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        json.writeEndObject();
        json.writeFieldName("prices_taken_on");
        json.writeTree(takenOn);
        json.writeEndObject();
    }

    /** {@return the run's cost as {@link #writeCost} writes it, as a tree}: for a response that holds a run's detail */
    public ObjectNode costJson() {
        var out = new TokenBuffer(Json.MAPPER, false);
        try {
            writeCost(out);
            return (ObjectNode) Json.MAPPER.readTree(out.asParser());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@return a warning for each judge model that decided checks of this run while its agreement with people (Cohen's
     * kappa over every label in the store) lies below the run's {@code judge_min_kappa}} Judges no one has labelled are
     * not warned about: their agreement is unknown, not low. Empty for a report not loaded from a store.
     */
    public synchronized List<String> judgeWarnings() {
        if (judgeWarnings == null) {
            var decided = new java.util.TreeMap<String, Integer>();
            for (Item item : briefItems()) {
                for (JsonNode check : item.checkerDetail().path("checks")) {
                    Calibration.votes(check).forEach(vote -> decided.merge(vote.judgeModel(), 1, Integer::sum));
                }
            }
            double minKappa = EvalSpec.of(run).scoring().judgeMinKappa();
            Calibration agreement = decided.isEmpty() ? new Calibration(Map.of(), 0) : calibration.get();
            judgeWarnings = agreement.below(minKappa, decided.keySet()).stream()
                    .map(model -> {
                        var judge = agreement.byJudgeModel().get(model);
                        double[] interval = judge.kappaInterval();
                        return String.format(
                                java.util.Locale.ROOT,
                                "judge %s decided %d check(s) of this run, but its agreement with people is kappa %s "
                                        + "(95 %% CI %s, %d labelled check(s)), below %.2f: check its verdicts "
                                        + "(assay review, assay judges calibrate)",
                                model,
                                decided.get(model),
                                Double.isNaN(judge.kappa())
                                        ? "undefined"
                                        : String.format(java.util.Locale.ROOT, "%.2f", judge.kappa()),
                                Double.isNaN(interval[0])
                                        ? "undefined"
                                        : String.format(
                                                java.util.Locale.ROOT, "%.2f to %.2f", interval[0], interval[1]),
                                judge.n(),
                                minKappa);
                    })
                    .toList();
        }
        return judgeWarnings;
    }

    /** A report without case tags (coverage by tag then counts nothing). */
    public RunReport(Run run, List<Item> items) {
        this(run, items, Map.of());
    }

    /** {@return how many answers were drawn per case (the run's {@code samples}; 1 unless {@code --samples})} */
    public int samples() {
        // Read once: asked for every item of a pass, and reading the spec converts the run's whole configuration.
        int known = samples;
        if (known == 0) {
            known = EvalSpec.of(run).limits().samples();
            samples = known;
        }
        return known;
    }

    /**
     * {@return pass@k for k = 1..samples} (the unbiased estimator, averaged over the cases, counting the scored samples
     * of each case and those that passed); empty for a run with one sample per case
     */
    public synchronized Map<Integer, Double> passAtK() {
        tally();
        return passAtK;
    }

    /**
     * {@return pass^k for k = 1..samples} (τ-bench's {@code C(c, k) / C(n, k)}, averaged over the cases); empty for a
     * run with one sample per case
     */
    public synchronized Map<Integer, Double> passHatK() {
        tally();
        return passHatK;
    }

    /**
     * How a case's samples spread.
     *
     * @param samples scored samples
     * @param passed those that passed
     * @param mean their mean score
     * @param min the lowest score
     * @param max the highest score
     * @param stddev the samples' standard deviation (n − 1); 0 with one sample
     */
    public record SampleSpread(int samples, int passed, double mean, double min, double max, double stddev) {}

    /** {@return each case's spread of samples, in run order}; empty for a run with one sample per case */
    public synchronized Map<String, SampleSpread> sampleSpreads() {
        tally();
        return sampleSpreads;
    }

    /** {@return each dimension's standard error and 95 % interval, from its scored items} */
    public synchronized Map<String, Spread> spreads() {
        tally();
        return spreads;
    }

    /**
     * {@return each case's scored samples' scores (one with a single sample per case), in run order}, for planning
     * ({@link dev.assay.score.SamplePlan}); reads the items again
     */
    public Map<String, List<Double>> caseScores() {
        var scores = new LinkedHashMap<String, List<Double>>();
        for (Item item : items instanceof StoredItems stored ? stored.forFigures() : items) {
            if (item.status().isScored()) {
                scores.computeIfAbsent(item.trial().caseId(), id -> new ArrayList<>())
                        .add(item.score());
            }
        }
        return scores;
    }

    /**
     * How sure each dimension's score is, as the run's spec asks the reports to show it ({@code --cluster-by},
     * {@code --reducer}; docs/statistics.md).
     *
     * @param clusterBy the case field the standard errors are clustered by; null when items are taken as independent
     * @param reducer how a case's samples make its score, each case then counting once; null when each sample is an
     *     item of its own
     * @param dimensions each dimension's standard error and 95 % interval, dimensions in alphabetical order
     */
    public record Intervals(String clusterBy, Reducer reducer, Map<String, Spread> dimensions) {
        /** {@return what the intervals are over, for people: "clustered by scenario, samples reduced by max"} */
        public String description() {
            var parts = new ArrayList<String>();
            if (clusterBy != null) {
                parts.add("clustered by " + clusterBy);
            }
            if (reducer != null) {
                parts.add("samples reduced by " + reducer.wireName());
            }
            return parts.isEmpty() ? "items taken as independent" : String.join(", ", parts);
        }
    }

    /**
     * {@return each dimension's interval as the run's spec asks} ({@link Intervals}): {@link #spreads} unless the run
     * names a cluster field or a reducer; computed on the first call (reading the items and, to cluster, the stored
     * cases again) and kept
     */
    public synchronized Intervals intervals() {
        if (intervals == null) {
            EvalSpec.Scoring scoring = EvalSpec.of(run).scoring();
            Map<String, Spread> dimensions = scoring.clusterBy() == null && scoring.reducer() == null
                    ? spreads()
                    : spreads(scoring.reducer(), scoring.clusterBy(), scoring.clusterBy() == null ? Map.of() : cases());
            intervals = new Intervals(scoring.clusterBy(), scoring.reducer(), dimensions);
        }
        return intervals;
    }

    /**
     * {@return each dimension's spread of scored items or cases, its standard error clustered by a case field} Reads
     * the items again.
     *
     * @param reducer how a case's samples make its score, each case then counting once; null for each sample an item
     * @param field the case field to cluster by ({@link #clusterOf}); null for items taken as independent
     * @param cases the run's cases by id ({@link #cases}), where {@code field} is read
     */
    public Map<String, Spread> spreads(Reducer reducer, String field, Map<String, Case> cases) {
        var entries = new ArrayList<Scores.Entry>();
        var clusters = new ArrayList<String>();
        var scores = new LinkedHashMap<String, List<Double>>();
        var passed = new LinkedHashMap<String, Integer>();
        var dimensions = new LinkedHashMap<String, String>();
        for (Item item : items instanceof StoredItems stored ? stored.forFigures() : items) {
            String caseId = item.trial().caseId();
            if (reducer == null) {
                entries.add(new Scores.Entry(
                        item.dimension(),
                        item.weight(),
                        item.score(),
                        item.status().isScored(),
                        false));
                clusters.add(field == null ? null : clusterOf(cases.get(caseId), caseId, field));
            } else if (item.status().isScored()) {
                scores.computeIfAbsent(caseId, id -> new ArrayList<>()).add(item.score());
                passed.merge(caseId, item.status() == ItemStatus.PASSED ? 1 : 0, Integer::sum);
                dimensions.put(caseId, item.dimension());
            }
        }
        scores.forEach((caseId, list) -> {
            entries.add(new Scores.Entry(
                    dimensions.get(caseId), 1, reducer.reduce(list, passed.get(caseId), samples()), true, false));
            clusters.add(field == null ? null : clusterOf(cases.get(caseId), caseId, field));
        });
        return field == null ? Spread.byDimension(entries) : Spread.byDimension(entries, clusters);
    }

    /** {@return the cluster of a case by one of its fields}, one of the case's own when it has no such field */
    static String clusterOf(Case evalCase, String caseId, String field) {
        // "=" before a field's value, "#" before a case id: a value never names a case's own cluster.
        String own = "#" + caseId;
        if (evalCase == null || field.equals(RunComparison.BY_CASE)) {
            return own;
        }
        if (field.equals("dimension")) {
            return "=" + evalCase.dimension();
        }
        if (field.equals("language")) {
            return "=" + evalCase.language();
        }
        var value = evalCase.attributes().get(field);
        if (value != null && value.isValueNode()) {
            return "=" + value.asText();
        }
        String prefix = field + ":";
        return evalCase.tags().stream()
                .filter(tag -> tag.startsWith(prefix))
                .findFirst()
                .map(tag -> "=" + tag.substring(prefix.length()))
                .orElse(own);
    }

    /**
     * A run of several models as a matrix: each model's dimension scores and overall score, as a run of that model
     * alone would have them under the run's weights.
     *
     * @param labels the models' labels, in the order given
     * @param dimensions the cases' dimensions, in alphabetical order
     * @param byLabel each model's scores: by dimension, and its total; a model without a scored item has none
     */
    public record Matrix(List<String> labels, List<String> dimensions, Map<String, Scores> byLabel) {
        public Matrix {
            labels = List.copyOf(labels);
            dimensions = List.copyOf(dimensions);
            byLabel = Collections.unmodifiableMap(new LinkedHashMap<>(byLabel));
        }

        /** {@return a model's score in a dimension; null when none of its items there was scored} */
        public Double score(String label, String dimension) {
            Scores scores = byLabel.get(label);
            return scores == null ? null : scores.dimensionScores().get(dimension);
        }

        /** {@return a model's overall score; null when none of its items was scored} */
        public Double total(String label) {
            Scores scores = byLabel.get(label);
            return scores == null ? null : scores.total();
        }

        /**
         * {@return the JSON reports and the API give under {@code matrix}: the dimensions, and per model (in order) its
         * {@code label}, {@code total_score} and {@code dimension_scores}}
         */
        public com.fasterxml.jackson.databind.node.ObjectNode toJson() {
            var node = dev.assay.Json.object();
            node.set("dimensions", dev.assay.Json.strings(dimensions));
            var models = node.putArray("models");
            for (String label : labels) {
                var model = models.addObject().put("label", label);
                model.putPOJO("total_score", total(label));
                Scores scores = byLabel.get(label);
                model.set(
                        "dimension_scores", dev.assay.Json.tree(scores == null ? Map.of() : scores.dimensionScores()));
            }
            return node;
        }
    }

    /** {@return the matrix of a run of several models (model × dimension); empty for a run of one} */
    public synchronized Optional<Matrix> matrix() {
        tally();
        return Optional.ofNullable(matrix);
    }

    /**
     * {@return where a head-to-head run that stops when decided stands: when and why it stopped, its verdict, the cases
     * it used and saved}: the stored items fed again, in the cases' order, to the test the run stopped by; empty for
     * another run
     */
    public synchronized Optional<HeadToHead.Summary> headToHead() {
        tally();
        return Optional.ofNullable(headToHead);
    }

    /** {@return each dimension's item counts by status, dimensions in alphabetical order} */
    public synchronized Map<String, Counts> countsByDimension() {
        tally();
        return countsByDimension;
    }

    /** {@return the run's tool coverage} */
    public synchronized Coverage coverage() {
        tally();
        return coverage;
    }

    /**
     * Goes through the items once for every figure: each dimension's counts and spread, the coverage and pass@k. A
     * large run's items are read from the store again for each pass, which took seconds at 100 000 items when the
     * coverage had a pass of its own; this one reads only the fields the figures need ({@link StoredItems#forFigures}).
     */
    private void tally() {
        if (spreads != null) {
            return;
        }
        boolean sampled = samples() > 1;
        var entries = new ArrayList<Scores.Entry>();
        var counts = new TreeMap<String, Counts>();
        var coverageTally = new Coverage.Tally(run);
        var samplesByCase = new LinkedHashMap<String, int[]>();
        var scoresByCase = new LinkedHashMap<String, List<Double>>();
        EvalSpec spec = EvalSpec.of(run);
        List<String> labels = spec.subjectLabels();
        var byLabel = new LinkedHashMap<String, ScoreTally>();
        labels.forEach(label -> byLabel.put(label, new ScoreTally()));
        var dimensions = new java.util.TreeSet<String>();
        // The planned cases: a run stopped when decided counts the items it never ran in its total.
        HeadToHead comparison = HeadToHead.of(spec, run.counts().total() / Math.max(1, spec.itemCount(1)))
                .orElse(null);
        for (Item item : items instanceof StoredItems stored ? stored.forFigures() : items) {
            for (String label : labels) {
                String prefix = Case.labelledDimension(label, "");
                if (item.dimension().startsWith(prefix)) {
                    String dimension = item.dimension().substring(prefix.length());
                    dimensions.add(dimension);
                    byLabel.get(label)
                            .add(new Scores.Entry(
                                    dimension,
                                    item.weight(),
                                    item.score(),
                                    item.status().isScored(),
                                    item.status() == ItemStatus.PASSED));
                }
            }
            if (comparison != null) {
                comparison.accept(item);
            }
            entries.add(new Scores.Entry(
                    item.dimension(),
                    item.weight(),
                    item.score(),
                    item.status().isScored(),
                    item.status() == ItemStatus.PASSED));
            counts.merge(item.dimension(), Counts.ZERO.plus(item.status()), (sum, one) -> sum.plus(item.status()));
            // Each sample is an item of its own; it carries its case's tags.
            String caseId = item.trial().caseId();
            coverageTally.accept(item, caseTags.getOrDefault(caseId, List.of()));
            if (sampled && item.status().isScored()) {
                int[] scored = samplesByCase.computeIfAbsent(caseId, id -> new int[2]);
                scored[0]++;
                if (item.status() == ItemStatus.PASSED) {
                    scored[1]++;
                }
                scoresByCase.computeIfAbsent(caseId, id -> new ArrayList<>()).add(item.score());
            }
        }
        counts.replaceAll((dimension, tally) -> tally.withTotal(tally.completed()));
        countsByDimension = Collections.unmodifiableMap(counts);
        coverage = coverageTally.coverage();
        passAtK = sampled
                ? Collections.unmodifiableMap(PassAtK.upTo(List.copyOf(samplesByCase.values()), samples()))
                : Map.of();
        passHatK = sampled
                ? Collections.unmodifiableMap(PassAtK.hatUpTo(List.copyOf(samplesByCase.values()), samples()))
                : Map.of();
        var spreadsOfSamples = new LinkedHashMap<String, SampleSpread>();
        scoresByCase.forEach((caseId, scores) -> {
            Spread spread = Spread.of(scores);
            double sd = spread.stderr() * Math.sqrt(scores.size());
            spreadsOfSamples.put(
                    caseId,
                    new SampleSpread(
                            scores.size(),
                            samplesByCase.get(caseId)[1],
                            spread.mean(),
                            scores.stream()
                                    .mapToDouble(Double::doubleValue)
                                    .min()
                                    .orElseThrow(),
                            scores.stream()
                                    .mapToDouble(Double::doubleValue)
                                    .max()
                                    .orElseThrow(),
                            sd));
        });
        sampleSpreads = Collections.unmodifiableMap(spreadsOfSamples);
        if (!labels.isEmpty()) {
            Weights weights = spec.scoring().weights();
            var scores = new LinkedHashMap<String, Scores>();
            byLabel.forEach((label, tally) -> scores.put(label, tally.scores(weights)));
            matrix = new Matrix(labels, List.copyOf(dimensions), scores);
        }
        headToHead = comparison == null ? null : comparison.summary();
        spreads = Collections.unmodifiableMap(Spread.byDimension(entries));
    }

    /**
     * {@return the cases of the run's stored case set by id, in their order}; empty when the snapshot is missing or was
     * written by a newer Assay (a report still loads then, it just knows no case tags or languages)
     */
    public static Map<String, Case> storedCases(Store store, Run run) {
        var cases = new LinkedHashMap<String, Case>();
        Consumer<Case> keep = evalCase -> cases.put(evalCase.id(), evalCase);
        if (!readStoredCases(
                store, run, content -> SuiteSnapshots.fromJson(content).cases().forEach(keep), keep)) {
            // A snapshot written by a newer Assay: no cases are known.
            cases.clear();
        }
        return cases;
    }

    /**
     * {@return the run and its items, read from the store page by page as they are used, with the case tags of its
     * stored case set}
     *
     * @throws AssayException {@code run.not_found} when there is no such run
     */
    public static RunReport load(Store store, String runId) {
        Run run = find(store, runId);
        var tags = new LinkedHashMap<String, List<String>>();
        boolean read = readStoredCases(store, run, content -> tags.putAll(SuiteSnapshots.caseTags(content)), row -> {
            if (!row.tags().isEmpty()) {
                tags.put(row.id(), row.tags());
            }
        });
        if (!read) {
            // A snapshot written by a newer Assay: no case tags are known.
            tags.clear();
        }
        return new RunReport(
                run,
                new StoredItems(store, runId, EvalSpec.of(run).limits().samples()),
                tags,
                () -> storedCases(store, run),
                () -> Calibration.ofAllLabels(store));
    }

    /**
     * Reads the run's stored case set, if any: {@code inside} reads the snapshot's content, which holds the cases of a
     * snapshot stored before case rows, then {@code row} takes each case stored a row each. {@return false when the
     * snapshot does not read} (one written by a newer Assay), what was taken from it then being worthless
     */
    private static boolean readStoredCases(Store store, Run run, Consumer<String> inside, Consumer<Case> row) {
        Optional<CaseSetSnapshot> snapshot = store.findCaseSet(run.caseSetVersion());
        if (snapshot.isEmpty()) {
            return true;
        }
        try {
            inside.accept(snapshot.get().content());
            store.forEachCaseSetCase(
                    snapshot.get().version(), document -> row.accept(SuiteSnapshots.caseFromJson(document)));
            return true;
        } catch (AssayException e) {
            rethrowUnlessInvalid(e);
            return false;
        }
    }

    /** A snapshot that does not read is no reason to fail a report; a store that fails is. */
    private static void rethrowUnlessInvalid(AssayException e) {
        if (!e.problem().type().equals("snapshot.invalid")) {
            throw e;
        }
    }

    private static Run find(Store store, String runId) {
        return store.findRun(runId)
                .orElseThrow(() -> new AssayException(
                        Problem.of("run.not_found", "no run with id " + runId).withDetail("run_id", runId)));
    }

    /**
     * {@return the report of a run the engine has just ended}: its stored items with the engine's final record, since
     * the stored record still says {@code running} when the end could not be stored; with the case tags of the suite it
     * ran, which its caller has at hand, so that the stored snapshot is not read again
     */
    public static RunReport ofEnded(Store store, Run ended, Map<String, List<String>> caseTags) {
        return new RunReport(
                ended,
                new StoredItems(
                        store, ended.runId(), EvalSpec.of(ended).limits().samples()),
                caseTags,
                () -> storedCases(store, ended),
                () -> Calibration.ofAllLabels(store));
    }
}
