package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on a free loopback port in front of a nats-server, for a client whose answers
 * should arrive late: told to, it holds every byte the server sends to the client for a while
 * before passing it on, in order (a slow or congested return path, as a renew answered after
 * the holder gave up on it). Client-to-server bytes always pass at once, so every request
 * reaches the server on time and the server does every write it is asked to.
 *
 * <p>Each chunk read from the server is stamped with the delay in force when it was read and
 * written to the client at its read time plus that delay, but never before an earlier chunk:
 * one writer per connection writes them in the order read.
 *
 * <p>Told to, it also severs the path: drops every connection at once and, for a while,
 * closes every new one as soon as it is made, as a network partition between one client and
 * the server would. The client's reconnects fail until the path is back.
 */
public final class DelayingProxy implements AutoCloseable {

    /** A chunk the server sent, and when it may go on to the client (System.nanoTime). */
    private record Chunk(byte[] bytes, long dueNanos) {
    }

    private static final Chunk END = new Chunk(new byte[0], 0);

    private final InetSocketAddress server;
    private final ServerSocket listening;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private volatile long delayNanos;
    private volatile long delayUntilNanos = System.nanoTime();
    private volatile long severedUntilNanos = System.nanoTime();

    private DelayingProxy(InetSocketAddress server) throws IOException {
        this.server = server;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "delaying-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy in front of the server at {@code natsUrl} ({@code nats://host:port}). */
    public static DelayingProxy to(String natsUrl) {
        URI uri = URI.create(natsUrl);
        try {
            return new DelayingProxy(new InetSocketAddress(uri.getHost(), uri.getPort()));
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    /** The url a client connects to, to reach the server through this proxy. */
    public String url() {
        return "nats://127.0.0.1:" + listening.getLocalPort();
    }

    /**
     * From now for {@code during}, every byte the server sends is passed on {@code delay}
     * late. Returns when that stops, on System.nanoTime: later bytes pass at once, after the
     * delayed ones.
     */
    public long delayServerBytes(Duration delay, Duration during) {
        long until = System.nanoTime() + during.toNanos();
        delayNanos = delay.toNanos();
        delayUntilNanos = until;
        return until;
    }

    /** Drops every connection now and refuses new ones until {@link #reconnect}, or for at most {@code atMost}. */
    public void sever(Duration atMost) {
        severedUntilNanos = System.nanoTime() + atMost.toNanos();
        close(sockets);
        sockets.clear();
    }

    /** Ends a {@link #sever}: the next connection passes. */
    public void reconnect() {
        severedUntilNanos = System.nanoTime();
    }

    private void accept() {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                if (System.nanoTime() - severedUntilNanos < 0) {
                    client.close();
                    continue;
                }
                client.setTcpNoDelay(true);
                Socket upstream = new Socket();
                upstream.connect(server, 5_000);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                BlockingQueue<Chunk> toClient = new LinkedBlockingQueue<>();
                List<Socket> pair = List.of(client, upstream);
                daemon("proxy-client-to-server", pair, () -> copy(client.getInputStream(), upstream.getOutputStream()));
                daemon("proxy-server-read", pair, () -> readStamped(upstream.getInputStream(), toClient));
                daemon("proxy-server-to-client", pair, () -> writeWhenDue(toClient, client.getOutputStream()));
            } catch (IOException closedOrFailed) {
                // closed: stop accepting; a failed connect drops that one client, as a dead path would
            }
        }
    }

    private void readStamped(InputStream from, BlockingQueue<Chunk> to) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        try {
            int read;
            while ((read = from.read(buffer)) >= 0) {
                long now = System.nanoTime();
                long delay = now - delayUntilNanos < 0 ? delayNanos : 0;
                to.add(new Chunk(Arrays.copyOf(buffer, read), now + delay));
            }
        } finally {
            to.add(END);
        }
    }

    private static void writeWhenDue(BlockingQueue<Chunk> from, OutputStream to) throws IOException {
        try {
            while (true) {
                Chunk chunk = from.take();
                if (chunk == END) {
                    to.close();
                    return;
                }
                long wait;
                while ((wait = chunk.dueNanos() - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                to.write(chunk.bytes());
                to.flush();
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void copy(InputStream from, OutputStream to) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        int read;
        while ((read = from.read(buffer)) >= 0) {
            to.write(buffer, 0, read);
            to.flush();
        }
        to.close();
    }

    private interface Pump {
        void run() throws IOException;
    }

    private static void daemon(String name, List<Socket> pair, Pump pump) {
        Thread thread = new Thread(() -> {
            try {
                pump.run();
            } catch (IOException closed) {
                // one side closed: close both, as a dropped connection would
                close(pair);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void close(List<Socket> sockets) {
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    @Override
    public void close() throws IOException {
        listening.close();
        close(sockets);
    }
}
