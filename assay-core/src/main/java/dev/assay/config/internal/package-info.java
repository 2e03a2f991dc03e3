/**
 * The implementation behind {@code dev.assay.config}: not API. Nothing outside assay-core may use it
 * ({@code ArchitectureTest}), and it may change in any release without notice; use the public types of
 * {@code dev.assay.config}.
 */
package dev.assay.config.internal;
