package dev.assay.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.assay.cost.Budget;
import dev.assay.score.Reducer;
import dev.assay.score.Weights;
import java.time.Duration;

/**
 * The {@code defaults:} of {@code assay.yaml}; command-line flags override each of them. Absent values are null and
 * mean "the built-in default".
 *
 * @param target the target used when none is named; null for none
 * @param concurrency cases at once, >= 1
 * @param timeout per-case time limit ({@code timeout_s})
 * @param weights dimension weights (dimensions not named keep their built-in weight)
 * @param db the JDBC URL of the store
 * @param judgeCache whether judge answers are cached under the Assay home (default true)
 * @param userModel the model that plays conversation cases' simulated users ({@code user_model})
 * @param userBaseUrl the user model's API root ({@code user_base_url}); null for the run's
 * @param userApiKeyEnv the variable holding the user model's key ({@code user_api_key_env}); null for the run's
 * @param environment the environment of the cases that name none ({@code environment}, as a case writes it); null
 * @param sandboxEngine the container engine for cases that name an image ({@code sandbox.engine}, as
 *     {@code --sandbox}); null for the first that answers
 * @param sandbox the container of the cases that name none ({@code sandbox} without its {@code engine}, as a case
 *     writes its {@code sandbox}); null for none
 * @param budget the limits on a run's cost and tokens ({@code max_cost_usd}, {@code run_max_tokens},
 *     {@code case_max_tokens}); {@link Budget#NONE} for none
 * @param clusterBy the case field the reports' intervals are clustered by ({@code cluster_by}); null for none
 * @param reducer how the reports' intervals make a case's score from its samples ({@code reducer}); null for none
 * @param models several models to run each case against when none is named ({@code models}): each a target of the file
 *     that is a model, with its own endpoint and key, or a model as {@code --model} takes it; empty for none
 * @param judgeMinKappa the Cohen's kappa with people below which a report warns about a judge ({@code judge_min_kappa})
 */
public record RunDefaults(
        String target,
        Integer concurrency,
        Duration timeout,
        Weights weights,
        String db,
        Boolean judgeCache,
        String userModel,
        String userBaseUrl,
        String userApiKeyEnv,
        ObjectNode environment,
        String sandboxEngine,
        ObjectNode sandbox,
        Budget budget,
        String clusterBy,
        Reducer reducer,
        java.util.List<String> models,
        Double judgeMinKappa) {
    public static final RunDefaults NONE = new RunDefaults(
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            Budget.NONE,
            null,
            null,
            null,
            null);

    public RunDefaults {
        budget = budget == null ? Budget.NONE : budget;
        models = models == null ? java.util.List.of() : java.util.List.copyOf(models);
    }
}
