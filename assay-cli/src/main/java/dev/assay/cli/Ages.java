package dev.assay.cli;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** Ages given on the command line ({@code --cache 12h}, {@code runs prune --older-than 7d}). Stateless. */
final class Ages {
    private Ages() {}

    /**
     * {@return {@code amount} of the unit a letter names ({@code s}, {@code m}, {@code h}, {@code d}), or of
     * {@code bare} when there is no letter}: each option keeps its own pattern of what it accepts
     */
    static Duration of(long amount, String unit, ChronoUnit bare) {
        return switch (unit) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            default -> Duration.of(amount, bare);
        };
    }
}
