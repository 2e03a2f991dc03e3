package dev.assay.tools.internal;

import java.time.Duration;

/**
 * Text a {@link java.util.regex.Matcher} reads under a deadline. {@code java.util.regex} neither looks at the clock nor
 * answers an interruption, so a pattern that backtracks catastrophically (written by a model or a case file) would hold
 * its thread past every timeout; reading through this view makes each character read check the clock and throw
 * {@link Exceeded} once the time is up. Shared by the regex checker and the regex tools. Immutable.
 *
 * @param text the text searched
 * @param deadlineNanos the {@link System#nanoTime()} after which reading throws
 */
public record DeadlineText(String text, long deadlineNanos) implements CharSequence {

    /** {@return the text, readable for {@code limit} from now} */
    public static DeadlineText of(String text, Duration limit) {
        return new DeadlineText(text, System.nanoTime() + limit.toNanos());
    }

    /** Thrown by a read after the deadline; cheap, as it carries no stack trace. */
    public static final class Exceeded extends RuntimeException {
        Exceeded() {
            super(null, null, false, false);
        }
    }

    @Override
    public char charAt(int index) {
        if (System.nanoTime() - deadlineNanos > 0) {
            throw new Exceeded();
        }
        return text.charAt(index);
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new DeadlineText(text.substring(start, end), deadlineNanos);
    }

    @Override
    public String toString() {
        return text;
    }
}
