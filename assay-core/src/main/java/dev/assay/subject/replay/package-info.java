/**
 * Re-scoring recorded transcripts without calling anything: a recording file (JSONL, or a {@code report.json}) replayed
 * as a target, and the export of a stored run's transcripts into that file.
 */
package dev.assay.subject.replay;
