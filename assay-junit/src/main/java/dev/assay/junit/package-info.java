/**
 * JUnit 5 for Assay: {@link dev.assay.junit.AssayTests} turns an evaluation into dynamic tests, one per case plus one
 * for the threshold, for a {@code @TestFactory}. Built on the Java API ({@code dev.assay.api}) alone.
 */
package dev.assay.junit;
