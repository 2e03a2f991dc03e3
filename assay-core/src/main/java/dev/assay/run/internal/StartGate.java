package dev.assay.run.internal;

import dev.assay.Problem;
import dev.assay.cost.Budget;
import dev.assay.cost.CostTally;
import dev.assay.cost.ItemCost;
import dev.assay.result.Item;
import dev.assay.result.Run;
import dev.assay.run.EvalSpec;
import dev.assay.run.HeadToHead;
import dev.assay.run.RunMeters;
import dev.assay.run.Workload;
import java.util.function.Consumer;

/**
 * Whether a run may start a further case. It may not once an endpoint refused the credentials (every further call would
 * be refused too; the run ends {@code failed}), once a limit on the run's cost or tokens is reached (the run ends
 * {@code interrupted}, resumable with a higher limit), or once its head-to-head has decided (the run ends finished).
 * The cases running then finish: they are paid for already, and their answers count. Each reason is logged once, when
 * it first holds. Thread-safe.
 */
public final class StartGate {
    /** The item error that stops a run: the endpoint refused the credentials, so every further call would too. */
    private static final String AUTH_FAILED = "target.auth_failed";

    private final Consumer<String> log;
    private final CostTally cost;
    private final Budget budget;
    private final HeadToHead headToHead;
    private volatile Problem refused;
    private volatile Problem budgetExhausted;
    private volatile boolean decided;

    /**
     * @param run the run as it starts, whose model and stored description price its items
     * @param log where the line saying why the run stops goes
     */
    StartGate(Run run, Workload workload, Consumer<String> log) {
        this.log = log;
        EvalSpec spec = EvalSpec.of(run);
        this.cost = new CostTally(
                run.modelName(), spec.limits().prices(), spec.limits().samples());
        this.budget = workload.budget();
        this.headToHead = workload.headToHead().orElse(null);
    }

    /** {@return whether no further case may start, for any of the reasons} */
    public boolean closed() {
        return refused != null || budgetExhausted != null || decided;
    }

    /** {@return why no further case may start (the target refused the credentials), or null} */
    public Problem refused() {
        return refused;
    }

    /** {@return why no further case may start (a limit on the run's cost or tokens is reached), or null} */
    public Problem budgetExhausted() {
        return budgetExhausted;
    }

    /** Closes the gate if the item's endpoint refused the credentials. */
    synchronized void checkCredentials(Item item) {
        if (refused == null && item.error() != null && item.error().type().equals(AUTH_FAILED)) {
            refused = Problem.of(
                            AUTH_FAILED,
                            "the run stopped early because an endpoint refused the credentials: "
                                    + item.error().message())
                    .withDetail("case_id", item.caseId());
            log.accept("stopping: an endpoint refused the credentials (" + AUTH_FAILED + "); no further case starts");
        }
    }

    /**
     * Counts a finished item's cost against the run's budget and feeds it to the head-to-head, if the run is one.
     *
     * @param metered whether its cost is new to this process's meters (false for the items a resumed run kept)
     */
    synchronized void counted(Item item, boolean metered) {
        ItemCost spent = cost.add(item);
        if (metered) {
            RunMeters.spent(spent);
        }
        budget.exhausted(cost.total()).ifPresent(this::budgetReached);
        if (headToHead != null && headToHead.accept(item) && !decided) {
            decided = true;
            log.accept("stopping: " + headToHead.summary().reason()
                    + "; the cases running finish, no further case starts");
        }
    }

    /** Notes that the run reached a limit, the first time with a line saying so. */
    public synchronized void budgetReached(Problem problem) {
        if (budgetExhausted == null) {
            budgetExhausted = problem;
            log.accept("stopping: " + problem.message() + "; the cases running finish, no further case starts");
        }
    }
}
