/** Transcripts: the append-only record of what a target did on one case, and final-answer extraction. */
package dev.assay.transcript;
