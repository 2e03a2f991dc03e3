/**
 * What a run leaves behind: the {@link dev.assay.result.Run} and {@link dev.assay.result.Item} records, their statuses
 * and counts. The store persists them and reports read them.
 */
package dev.assay.result;
