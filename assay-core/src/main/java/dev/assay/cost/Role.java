package dev.assay.cost;

import java.util.Locale;

/**
 * Why a model was called in an item, so that its cost is counted apart: the system under test, a judge grading it, or a
 * simulated user talking to it. Stored by its wire name in usage records ({@link ItemCost}).
 */
public enum Role {
    /** The system under test: the model the run evaluates. */
    SUBJECT,
    /** A judge model grading an answer ({@code judge} checks). */
    JUDGE,
    /** A model playing the user in a conversation. */
    USER;

    /** {@return the name in JSON: {@code subject}, {@code judge}, {@code user}} */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@return the role named {@code wireName}; {@code otherwise} for an absent or unknown name} */
    public static Role of(String wireName, Role otherwise) {
        for (Role role : values()) {
            if (role.wireName().equals(wireName)) {
                return role;
            }
        }
        return otherwise;
    }
}
