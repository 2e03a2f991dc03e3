package dev.assay;

/**
 * The one exception Assay throws for failures that stop an operation as a whole (an invalid suite, an unknown plug-in,
 * an unreachable database). Failures inside a run are recorded as {@link Problem}s on the item instead, and the run
 * goes on.
 */
public final class AssayException extends RuntimeException {
    private final Problem problem;

    public AssayException(Problem problem) {
        super(problem.message());
        this.problem = problem;
    }

    public AssayException(Problem problem, Throwable cause) {
        super(problem.message(), cause);
        this.problem = problem;
    }

    public static AssayException of(String type, String message) {
        return new AssayException(Problem.of(type, message));
    }

    /** {@return the problem this exception carries} */
    public Problem problem() {
        return problem;
    }
}
