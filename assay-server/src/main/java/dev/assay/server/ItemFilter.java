package dev.assay.server;

import dev.assay.cases.Case;
import dev.assay.result.Item;
import dev.assay.result.ItemStatus;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Which items of a run a page of items holds: an item is listed when it meets every criterion given (null or empty
 * means any). Language and tags are the case's, from the run's stored case set.
 *
 * @param statuses the accepted statuses; empty for any
 * @param dimension the item's dimension, exactly
 * @param language the case's language, exactly ({@code en-US})
 * @param tag one of the case's tags, exactly
 * @param text a substring, in any case, of the case id, prompt, final answer or error message
 * @param caseId the item's case id, exactly (with its {@code #k} sample suffix when the run drew several)
 */
record ItemFilter(Set<ItemStatus> statuses, String dimension, String language, String tag, String text, String caseId) {

    ItemFilter {
        statuses = Set.copyOf(statuses);
    }

    /** {@return whether every item passes, so the store can page the items itself} */
    boolean isEmpty() {
        return statuses.isEmpty()
                && Stream.of(dimension, language, tag, text, caseId).allMatch(value -> value == null);
    }

    /** {@return whether the item passes}; {@code evalCase} is its case, or null when the case set is unknown */
    boolean matches(Item item, Case evalCase) {
        return (statuses.isEmpty() || statuses.contains(item.status()))
                && (dimension == null || dimension.equals(item.dimension()))
                && (language == null || (evalCase != null && language.equals(evalCase.language())))
                && (tag == null || (evalCase != null && evalCase.tags().contains(tag)))
                && (caseId == null || caseId.equals(item.caseId()))
                && (text == null || mentions(item, text.toLowerCase(Locale.ROOT)));
    }

    private static boolean mentions(Item item, String lowerText) {
        return Stream.of(
                        item.caseId(),
                        item.prompt(),
                        item.finalAnswer(),
                        item.error() == null ? "" : item.error().message())
                .anyMatch(field -> field.toLowerCase(Locale.ROOT).contains(lowerText));
    }
}
