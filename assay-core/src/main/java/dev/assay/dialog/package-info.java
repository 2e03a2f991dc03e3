/**
 * Multi-turn dialog evaluation after the MemFin Eval Metrics Contract v1: the dataset, replay of dialogs against a chat
 * model or an agent service, traces, the per-turn rows and the five metrics M1–M5, with the reference implementation's
 * numbers reproduced exactly under the default metrics profile.
 */
package dev.assay.dialog;
