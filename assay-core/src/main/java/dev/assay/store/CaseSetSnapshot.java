package dev.assay.store;

import java.time.Instant;

/**
 * A versioned snapshot of a suite, stored once per content hash ({@code evaluation_case_sets}) so every run can say
 * exactly which cases it ran.
 *
 * @param version the suite's content hash (hex SHA-256)
 * @param name the case-set name
 * @param caseCount how many cases
 * @param content the normalised suite (cases and fixtures) as JSON text: kept as text, not as a tree, since a suite of
 *     100 000 cases is tens of megabytes as text and several times that as a tree
 * @param createdAt when this version was first stored
 */
public record CaseSetSnapshot(String version, String name, int caseCount, String content, Instant createdAt) {}
