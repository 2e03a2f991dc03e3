package dev.assay.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.assay.Problem;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One evaluation run as stored and reported. Immutable; the engine makes a new copy at each change.
 *
 * @param runId 32 hex characters, unique
 * @param kind what it evaluates
 * @param userId who started it; empty when not given
 * @param modelName the target's model (or agent URL) as the user named it
 * @param language the selected language; empty for all
 * @param status running, finished, failed, cancelled or interrupted
 * @param caseSet the suite's name
 * @param caseSetVersion the content hash of the suite snapshot the run used ({@code evaluation_case_sets})
 * @param config the configuration snapshot, with secrets removed
 * @param toolSnapshot the canonical names of the tools offered to the target, sorted
 * @param dimensionScores dimension to score in [0, 1]; dimensions with no scored item are absent
 * @param totalScore the weighted total in [0, 1]; null until something was scored
 * @param counts items by outcome
 * @param startedAt when it started
 * @param finishedAt when it ended; null while running
 * @param elapsedS seconds from start to end (or to now, while running)
 * @param error why the run failed or was interrupted; null otherwise
 * @param metrics the extra metrics named for the run ({@code --metric NAME}), name to value, computed over its items
 *     when it ended; empty for none
 */
public record Run(
        String runId,
        RunKind kind,
        String userId,
        String modelName,
        String language,
        RunStatus status,
        String caseSet,
        String caseSetVersion,
        JsonNode config,
        List<String> toolSnapshot,
        Map<String, Double> dimensionScores,
        Double totalScore,
        Counts counts,
        Instant startedAt,
        Instant finishedAt,
        double elapsedS,
        Problem error,
        Map<String, Double> metrics) {

    public Run {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        kind = kind == null ? RunKind.CAPABILITY : kind;
        userId = userId == null ? "" : userId;
        modelName = modelName == null ? "" : modelName;
        language = language == null ? "" : language;
        caseSet = caseSet == null ? "" : caseSet;
        caseSetVersion = caseSetVersion == null ? "" : caseSetVersion;
        config = config == null ? NullNode.getInstance() : config;
        toolSnapshot = toolSnapshot == null ? List.of() : List.copyOf(toolSnapshot);
        dimensionScores = dimensionScores == null
                ? Map.of()
                : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(dimensionScores));
        counts = counts == null ? Counts.ZERO : counts;
        metrics = metrics == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    /** A run without extra metrics. */
    public Run(
            String runId,
            RunKind kind,
            String userId,
            String modelName,
            String language,
            RunStatus status,
            String caseSet,
            String caseSetVersion,
            JsonNode config,
            List<String> toolSnapshot,
            Map<String, Double> dimensionScores,
            Double totalScore,
            Counts counts,
            Instant startedAt,
            Instant finishedAt,
            double elapsedS,
            Problem error) {
        this(
                runId,
                kind,
                userId,
                modelName,
                language,
                status,
                caseSet,
                caseSetVersion,
                config,
                toolSnapshot,
                dimensionScores,
                totalScore,
                counts,
                startedAt,
                finishedAt,
                elapsedS,
                error,
                Map.of());
    }

    public Run withProgress(
            RunStatus newStatus,
            Map<String, Double> newDimensionScores,
            Double newTotal,
            Counts newCounts,
            Instant newFinishedAt,
            double newElapsedS,
            Problem newError) {
        return new Run(
                runId,
                kind,
                userId,
                modelName,
                language,
                newStatus,
                caseSet,
                caseSetVersion,
                config,
                toolSnapshot,
                newDimensionScores,
                newTotal,
                newCounts,
                startedAt,
                newFinishedAt,
                newElapsedS,
                newError,
                metrics);
    }

    /** {@return this run with these extra metrics, name to value} */
    public Run withMetrics(Map<String, Double> newMetrics) {
        return new Run(
                runId,
                kind,
                userId,
                modelName,
                language,
                status,
                caseSet,
                caseSetVersion,
                config,
                toolSnapshot,
                dimensionScores,
                totalScore,
                counts,
                startedAt,
                finishedAt,
                elapsedS,
                error,
                newMetrics);
    }
}
