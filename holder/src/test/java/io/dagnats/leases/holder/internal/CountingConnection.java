package io.dagnats.leases.holder.internal;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Subscription;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A NATS connection that connects to nothing and counts what a holder opens on it and closes
 * again: dispatchers, their subscriptions, connection listeners. What is still open when the
 * holder is done is what it leaked. Any other call answers null (or false, or 0).
 */
public final class CountingConnection {

    /** Each open dispatcher and its subscriptions not unsubscribed. */
    private final Map<Object, Set<Object>> dispatchers = new ConcurrentHashMap<>();
    private final Set<Object> listeners = ConcurrentHashMap.newKeySet();
    private final Connection connection = proxy(Connection.class, (proxy, method, args) -> switch (method.getName()) {
        case "createDispatcher" -> dispatcher();
        case "closeDispatcher" -> dispatchers.remove(args[0]);
        case "addConnectionListener" -> listeners.add(args[0]);
        case "removeConnectionListener" -> listeners.remove(args[0]);
        case "getStatus" -> Connection.Status.CONNECTED;
        default -> nothing(proxy, method, args);
    });

    public Connection connection() {
        return connection;
    }

    /** Dispatchers opened and not closed. */
    public int openDispatchers() {
        return dispatchers.size();
    }

    /** Subscriptions on a dispatcher still open, not unsubscribed. */
    public int openSubscriptions() {
        return dispatchers.values().stream().mapToInt(Set::size).sum();
    }

    /** Connection listeners added and not removed. */
    public int listeners() {
        return listeners.size();
    }

    private Dispatcher dispatcher() {
        Set<Object> subscriptions = ConcurrentHashMap.newKeySet();
        Dispatcher dispatcher = proxy(Dispatcher.class, (proxy, method, args) -> switch (method.getName()) {
            case "subscribe" -> {
                Subscription subscription = proxy(Subscription.class, CountingConnection::nothing);
                subscriptions.add(subscription);
                yield subscription;
            }
            case "unsubscribe" -> {
                subscriptions.remove(args[0]);
                yield proxy;
            }
            case "isActive" -> dispatchers.containsKey(proxy);
            default -> nothing(proxy, method, args);
        });
        dispatchers.put(dispatcher, subscriptions);
        return dispatcher;
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }

    /** Identity for equals and hashCode (proxies are map keys here); null, false or 0 for the rest. */
    private static Object nothing(Object proxy, Method method, Object[] args) {
        return switch (method.getName()) {
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            case "toString" -> method.getDeclaringClass().getSimpleName() + "@" + System.identityHashCode(proxy);
            default -> method.getReturnType() == boolean.class ? Boolean.FALSE
                    : method.getReturnType() == long.class ? Long.valueOf(0)
                    : method.getReturnType() == int.class ? Integer.valueOf(0) : null;
        };
    }
}
