package dev.assay.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy in front of a server (the shared PostgreSQL) that a test can cut and restore, to fake an outage
 * without stopping the server other developers use. While cut, every open connection is reset and every new one is
 * reset as soon as it is accepted, as a restarting server would do. Bounded: one listening socket, two virtual threads
 * per connection, everything closed by {@link #close()}.
 */
public final class CuttableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress upstream;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    private CuttableProxy(InetSocketAddress upstream) throws IOException {
        this.upstream = upstream;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("proxy-accept").start(this::accept);
    }

    /** {@return a proxy in front of the host and port of a {@code jdbc:postgresql://host:port/...} URL} */
    public static CuttableProxy before(String jdbcUrl) throws IOException {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        return new CuttableProxy(new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort()));
    }

    /** {@return the JDBC URL with its host and port replaced by the proxy's} */
    public String route(String jdbcUrl) {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        String authority = uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
        return jdbcUrl.replaceFirst(java.util.regex.Pattern.quote(authority), "127.0.0.1:" + listener.getLocalPort());
    }

    /** Resets every open connection and refuses new ones until {@link #restore()}. */
    public void cut() {
        cut = true;
        open.forEach(CuttableProxy::reset);
        open.clear();
    }

    /** Forwards new connections again. */
    public void restore() {
        cut = false;
    }

    @Override
    public void close() {
        cut();
        try {
            listener.close();
        } catch (IOException ignored) {
            // Closing is all that is asked.
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException closed) {
                return;
            }
            if (cut) {
                reset(client);
                continue;
            }
            try {
                Socket server = new Socket(upstream.getAddress(), upstream.getPort());
                open.add(client);
                open.add(server);
                Thread.ofVirtual().start(() -> pump(client, server));
                Thread.ofVirtual().start(() -> pump(server, client));
            } catch (IOException refused) {
                reset(client);
            }
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // Reset by cut() or closed by either side.
        } finally {
            reset(from);
            reset(to);
            open.remove(from);
            open.remove(to);
        }
    }

    /** Closes with an RST rather than a FIN, as a dying server's kernel does. */
    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
            socket.close();
        } catch (SocketException closed) {
            // Already closed.
        } catch (IOException ignored) {
            // Closing is all that is asked.
        }
    }
}
