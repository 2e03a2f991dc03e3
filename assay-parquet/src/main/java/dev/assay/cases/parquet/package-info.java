/** Datasets in Parquet files (the {@code parquet} {@link dev.assay.cases.DatasetFormat}), read by Apache Parquet. */
package dev.assay.cases.parquet;
