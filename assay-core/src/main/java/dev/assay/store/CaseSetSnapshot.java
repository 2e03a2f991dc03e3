package dev.assay.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * A versioned snapshot of a suite, stored once per content hash ({@code evaluation_case_sets}) so every run can say
 * exactly which cases it ran.
 *
 * @param version the suite's content hash (hex SHA-256)
 * @param name the case-set name
 * @param caseCount how many cases
 * @param content the normalised suite (cases and fixtures) as JSON
 * @param createdAt when this version was first stored
 */
public record CaseSetSnapshot(String version, String name, int caseCount, JsonNode content, Instant createdAt) {}
