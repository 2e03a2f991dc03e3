/** Scoring: dimension weights and the aggregation of item scores into dimension scores and a total. */
package dev.assay.score;
