package dev.assay;

/**
 * Masks a secret's value (an API key, an agent's credential) in text Assay did not write and is about to keep: an
 * endpoint's error body, which some servers fill with the request's own {@code Authorization} header, or an answer.
 * Assay never writes a secret itself; this keeps one that an endpoint echoes out of the database, the reports and the
 * logs. Immutable.
 *
 * @param secret the value to mask; one shorter than {@value #SHORTEST_MASKED} characters (a placeholder such as
 *     {@code x} for a local server) is left alone, since masking it would garble ordinary text
 */
public record SecretMask(String secret) {
    /** No provider issues keys this short; shorter values are placeholders. */
    public static final int SHORTEST_MASKED = 8;

    /** What a masked secret reads as. */
    public static final String MASKED = "***";

    /** A mask that changes nothing. */
    public static final SecretMask NONE = new SecretMask("");

    public SecretMask {
        secret = secret == null || secret.strip().length() < SHORTEST_MASKED ? "" : secret.strip();
    }

    /** {@return whether {@code text} holds the secret} */
    public boolean appearsIn(String text) {
        return !secret.isEmpty() && text != null && text.contains(secret);
    }

    /** {@return the text with every occurrence of the secret masked} */
    public String apply(String text) {
        return appearsIn(text) ? text.replace(secret, MASKED) : text;
    }

    /** {@return whether the problem's message or one of its text details holds the secret} */
    public boolean appearsIn(Problem problem) {
        return appearsIn(problem.message())
                || problem.details().values().stream()
                        .anyMatch(value -> value instanceof String text && appearsIn(text));
    }

    /** {@return the problem with the secret masked in its message and its text details; the same one if absent} */
    public Problem apply(Problem problem) {
        return appearsIn(problem) ? problem.withTextRewritten(this::apply) : problem;
    }
}
