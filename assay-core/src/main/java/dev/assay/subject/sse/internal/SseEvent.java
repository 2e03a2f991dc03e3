package dev.assay.subject.sse.internal;

/**
 * One server-sent event as it arrived.
 *
 * @param event the {@code event:} name; {@code message} when the server gave none
 * @param id the last {@code id:} seen on the stream (it persists across events, as the SSE standard says); empty when
 *     none
 * @param data the {@code data:} lines joined with {@code \n}
 */
public record SseEvent(String event, String id, String data) {}
