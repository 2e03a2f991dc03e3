package dev.assay.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusteredSpreadTest {
    /**
     * cluster_reference.json was written once by cluster_reference.py (beside it): statsmodels' cluster-robust standard
     * error of an OLS on a constant, in numpy matrix algebra, on five seeded data sets (then three paired ones, below).
     */
    @Test
    void clustered_stderr_equals_the_statsmodels_reference_to_1e_9() throws IOException {
        JsonNode sets;
        try (InputStream in = ClusteredSpreadTest.class.getResourceAsStream("cluster_reference.json")) {
            sets = Json.MAPPER.readTree(in);
        }
        assertThat(sets.size()).isEqualTo(8);
        for (JsonNode set : sets) {
            if (!set.has("values")) {
                continue;
            }
            var values = new ArrayList<Double>();
            var clusters = new ArrayList<String>();
            set.get("values").forEach(value -> values.add(value.asDouble()));
            set.get("clusters").forEach(cluster -> clusters.add(cluster.asText()));
            Spread spread = Spread.clustered(values, clusters);
            assertThat(spread.mean()).isCloseTo(set.get("mean").asDouble(), within(1e-9));
            assertThat(spread.stderr()).isCloseTo(set.get("stderr").asDouble(), within(1e-9));
        }
    }

    /** The same regression on the paired differences b − a of two runs' scores of the same cases, in clusters. */
    @Test
    void clustered_paired_difference_equals_the_statsmodels_reference_to_1e_9() throws IOException {
        JsonNode sets;
        try (InputStream in = ClusteredSpreadTest.class.getResourceAsStream("cluster_reference.json")) {
            sets = Json.MAPPER.readTree(in);
        }
        int checked = 0;
        for (JsonNode set : sets) {
            if (!set.has("a")) {
                continue;
            }
            var pairs = new ArrayList<PairedComparison.Pair>();
            var clusters = new ArrayList<String>();
            for (int i = 0; i < set.get("a").size(); i++) {
                double a = set.get("a").get(i).asDouble();
                double b = set.get("b").get(i).asDouble();
                pairs.add(new PairedComparison.Pair(a, b, a == 1, b == 1));
                clusters.add(set.get("clusters").get(i).asText());
            }
            PairedComparison paired = PairedComparison.of(pairs, clusters);
            double half = Spread.t975(paired.clusters() - 1) * set.get("stderr").asDouble();
            assertThat(paired.meanDelta()).isCloseTo(set.get("mean").asDouble(), within(1e-9));
            assertThat(paired.meanDelta() - paired.deltaLow()).isCloseTo(half, within(1e-9));
            assertThat(paired.deltaHigh() - paired.meanDelta()).isCloseTo(half, within(1e-9));
            assertThat(paired.clusters()).isEqualTo(new java.util.HashSet<>(clusters).size());
            checked++;
        }
        assertThat(checked).isEqualTo(3);
    }

    @Test
    void a_clustered_comparison_says_over_how_many_clusters() {
        var pairs = List.of(
                new PairedComparison.Pair(0, 1, false, true),
                new PairedComparison.Pair(0, 1, false, true),
                new PairedComparison.Pair(1, 1, true, true),
                new PairedComparison.Pair(0, 0, false, false));
        PairedComparison paired = PairedComparison.of(pairs, List.of("x", "x", "y", "z"));
        assertThat(paired.sentence()).contains("over 3 clusters");
        assertThat(PairedComparison.of(pairs).clusters()).isZero();
        assertThat(PairedComparison.of(pairs).sentence()).doesNotContain("clusters");
    }

    @Test
    void singleton_clusters_give_the_iid_stderr_times_the_small_sample_factor() {
        var values = List.of(1.0, 0.0, 1.0, 1.0, 0.0, 1.0);
        Spread clustered = Spread.clustered(values, List.of("a", "b", "c", "d", "e", "f"));
        // CR1 with one value per cluster: sqrt(n/(n-1) · Σ e² / n²) = the usual sd/sqrt(n).
        assertThat(clustered.stderr()).isCloseTo(Spread.of(values).stderr(), within(1e-12));
    }

    @Test
    void correlated_cases_in_one_scenario_widen_the_interval() {
        var values = List.of(1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0);
        var clusters = List.of("x", "x", "x", "y", "y", "y", "z", "z", "w", "w");
        assertThat(Spread.clustered(values, clusters).stderr())
                .isGreaterThan(Spread.of(values).stderr());
    }

    @Test
    void one_cluster_has_no_spread() {
        Spread spread = Spread.clustered(List.of(1.0, 0.0), List.of("x", "x"));
        assertThat(spread.stderr()).isZero();
        assertThat(spread.low()).isEqualTo(0.5);
    }

    @Test
    void by_dimension_clusters_only_scored_entries() {
        var entries = List.of(
                new Scores.Entry("logic", 1, 1.0, true, true),
                new Scores.Entry("logic", 1, 0.0, true, false),
                new Scores.Entry("logic", 1, 0.0, false, false),
                new Scores.Entry("tool", 1, 1.0, true, true));
        Map<String, Spread> spreads = Spread.byDimension(entries, List.of("a", "b", "a", "c"));
        assertThat(spreads.get("logic").n()).isEqualTo(2);
        assertThat(spreads.get("logic").stderr()).isCloseTo(0.5, within(1e-12));
        assertThat(spreads.get("tool").n()).isEqualTo(1);
    }
}
