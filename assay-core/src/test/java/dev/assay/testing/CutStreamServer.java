package dev.assay.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP server on loopback that answers every request with a {@code 200 text/event-stream} whose chunked body stops
 * in the middle: it sends {@code prefix} as one chunk and closes the socket without the terminating chunk, as a crashed
 * server or a proxy cutting the connection does. The HTTP servers of the JDK cannot do this: closing an exchange always
 * finishes the body. {@link #answering} sends other bytes, or none, before closing.
 */
public final class CutStreamServer implements AutoCloseable {
    private final ServerSocket socket;
    private final byte[] reply;
    private final AtomicInteger requests = new AtomicInteger();
    private final Thread acceptor;

    private CutStreamServer(byte[] reply) throws IOException {
        this.reply = reply;
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofVirtual().start(this::serve);
    }

    /** Starts a server whose streams send {@code prefix} (SSE text, e.g. one {@code data:} event) and break off. */
    public static CutStreamServer start(String prefix) {
        byte[] chunk = prefix.getBytes(StandardCharsets.UTF_8);
        return answering("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(chunk.length) + "\r\n" + prefix + "\r\n");
    }

    /**
     * Starts a server that reads each request, sends {@code raw} as it is and closes the connection: an empty text is a
     * server that died with the request, anything but HTTP one that is not an HTTP server.
     */
    public static CutStreamServer answering(String raw) {
        try {
            return new CutStreamServer(raw.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return http://127.0.0.1:PORT followed by {@code path}} */
    public String url(String path) {
        return "http://127.0.0.1:" + socket.getLocalPort() + path;
    }

    /** {@return how many requests were answered} */
    public int requests() {
        return requests.get();
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket connection = socket.accept()) {
                answer(connection);
            } catch (IOException e) {
                // Closed by close(), or a client that went away: either way there is nothing to answer.
            }
        }
    }

    private void answer(Socket connection) throws IOException {
        var in = new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8));
        int length = 0;
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(
                        line.substring("content-length:".length()).strip());
            }
        }
        in.skip(length);
        requests.incrementAndGet();
        OutputStream out = connection.getOutputStream();
        out.write(reply);
        out.flush();
    }

    @Override
    public void close() {
        try {
            socket.close();
            acceptor.join(5_000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
