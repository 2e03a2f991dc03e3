/**
 * The implementation behind {@code dev.assay.check.judge}: not API. Nothing outside assay-core may use it
 * ({@code ArchitectureTest}), and it may change in any release without notice; use the public types of
 * {@code dev.assay.check.judge}.
 */
package dev.assay.check.judge.internal;
