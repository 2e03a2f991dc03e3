/**
 * The implementation behind {@code dev.assay.cases}: not API. Nothing outside assay-core may use it
 * ({@code ArchitectureTest}), and it may change in any release without notice; use the public types of
 * {@code dev.assay.cases}.
 */
package dev.assay.cases.internal;
