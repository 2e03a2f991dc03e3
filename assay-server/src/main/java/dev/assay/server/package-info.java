/**
 * Assay's HTTP front end: REST under {@code /api}, a live SSE stream per run, the reference server's
 * {@code /wunder/admin/evaluation} paths as aliases, and the web page. It calls the same engine, store and reporters as
 * the CLI; {@link dev.assay.server.AssayServer#create} is the entry point.
 */
package dev.assay.server;
