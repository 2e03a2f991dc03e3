/**
 * Agent services that run their own loop and stream what they do as server-sent events (the reference server's
 * {@code POST /wunder} protocol by default): one request per case (or per dialog turn, for dialog replay), events
 * mapped into the transcript.
 */
package dev.assay.subject.sse;
