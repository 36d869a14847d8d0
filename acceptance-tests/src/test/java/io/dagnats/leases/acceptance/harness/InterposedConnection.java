package io.dagnats.leases.acceptance.harness;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.MessageHandler;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real NATS connection as a test wants a holder to see it. jnats' {@link Connection} and
 * {@link Dispatcher} are interfaces; this wraps them, and everything not named here passes
 * through to the real ones unchanged.
 *
 * <ul>
 * <li><b>No change event ever arrives</b>: a dispatcher's handler is not called for a message
 * on {@code dagnats.lease.changed.>}, as if every event were lost. Events are at most once; a
 * holder must keep working without them, on its own fallbacks, and a test that drops them all
 * shows that an event is not what saves it.</li>
 * <li><b>Calls can be held</b> ({@link #holdCalls} to {@link #releaseCalls}): an asynchronous
 * request made meanwhile is sent only on the release, as jnats' reconnect buffer sends a request
 * made while its connection is down once it is back. The caller's own timeout still runs.</li>
 * <li><b>One call can be lost</b> ({@link #loseNext}): the next request on a subject is not sent
 * and fails at once, as a request to a dagnats that crashed before answering does.</li>
 * </ul>
 */
public final class InterposedConnection {

    static final String CHANGE_EVENTS = "dagnats.lease.changed.";

    private final Connection real;
    private final Connection connection;
    private final AtomicLong droppedEvents = new AtomicLong();
    private final AtomicInteger lostCalls = new AtomicInteger();
    private final Set<String> loseNext = new HashSet<>();
    private final List<Runnable> held = new ArrayList<>();
    private boolean holding;

    private InterposedConnection(Connection real) {
        this.real = real;
        this.connection = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, this::onConnection);
    }

    public static InterposedConnection around(Connection real) {
        return new InterposedConnection(real);
    }

    /** The connection to hand to the holder. */
    public Connection connection() {
        return connection;
    }

    /** From now, asynchronous requests wait for {@link #releaseCalls} before they are sent. */
    public synchronized void holdCalls() {
        holding = true;
    }

    /** Sends every request held, in the order made, and lets later ones pass at once. */
    public void releaseCalls() {
        List<Runnable> sending;
        synchronized (this) {
            holding = false;
            sending = List.copyOf(held);
            held.clear();
        }
        sending.forEach(Runnable::run);
    }

    /** The next request on {@code subject} is lost: not sent, and it fails at once. */
    public synchronized void loseNext(String subject) {
        loseNext.add(subject);
    }

    /** How many requests {@link #loseNext} lost so far. */
    public int lostCalls() {
        return lostCalls.get();
    }

    /** How many change events the holder was not given. */
    public long droppedEvents() {
        return droppedEvents.get();
    }

    private Object onConnection(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (name.equals("createDispatcher")) {
            Dispatcher dispatcher = args == null || args.length == 0 ? real.createDispatcher()
                    : real.createDispatcher(deaf((MessageHandler) args[0]));
            return Proxy.newProxyInstance(Dispatcher.class.getClassLoader(), new Class<?>[] {Dispatcher.class},
                    new DeafDispatcher(dispatcher));
        }
        if (name.equals("closeDispatcher")) {
            real.closeDispatcher(unwrap((Dispatcher) args[0]));
            return null;
        }
        if ((name.equals("request") || name.equals("requestWithTimeout"))
                && method.getReturnType() == CompletableFuture.class) {
            String subject = args[0] instanceof Message message ? message.getSubject() : (String) args[0];
            return call(subject, () -> invoke(real, method, args));
        }
        return invoke(real, method, args);
    }

    /** What sends one request: the real connection's own call. */
    private interface Send {
        Object send() throws Throwable;
    }

    @SuppressWarnings("unchecked")
    private synchronized CompletableFuture<Message> call(String subject, Send send) throws Throwable {
        if (loseNext.remove(subject)) {
            lostCalls.incrementAndGet();
            return CompletableFuture.failedFuture(new TimeoutException("the test lost this request on " + subject));
        }
        if (!holding) {
            return (CompletableFuture<Message>) send.send();
        }
        CompletableFuture<Message> later = new CompletableFuture<>();
        held.add(() -> {
            try {
                ((CompletableFuture<Message>) send.send()).whenComplete((reply, failure) -> {
                    if (failure != null) {
                        later.completeExceptionally(failure);
                    } else {
                        later.complete(reply);
                    }
                });
            } catch (Throwable cannotSend) {
                later.completeExceptionally(cannotSend);
            }
        });
        return later;
    }

    private MessageHandler deaf(MessageHandler handler) {
        return message -> {
            if (message.getSubject().startsWith(CHANGE_EVENTS)) {
                droppedEvents.incrementAndGet();
                return;
            }
            handler.onMessage(message);
        };
    }

    private static Dispatcher unwrap(Dispatcher dispatcher) {
        return Proxy.isProxyClass(dispatcher.getClass())
                && Proxy.getInvocationHandler(dispatcher) instanceof DeafDispatcher deaf ? deaf.real : dispatcher;
    }

    /** A dispatcher whose subscriptions' handlers never see a change event. */
    private final class DeafDispatcher implements InvocationHandler {
        final Dispatcher real;

        DeafDispatcher(Dispatcher real) {
            this.real = real;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getName().equals("subscribe") && args != null
                    && args[args.length - 1] instanceof MessageHandler handler) {
                Object[] deafened = args.clone();
                deafened[args.length - 1] = deaf(handler);
                return InterposedConnection.invoke(real, method, deafened);
            }
            Object result = InterposedConnection.invoke(real, method, args);
            return result == real ? proxy : result; // a fluent call returns the wrapper, not the real dispatcher
        }
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
        }
    }
}
