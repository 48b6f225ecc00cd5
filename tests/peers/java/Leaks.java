// Leaks.java: a program with the leaks Eclipse MAT and LeakCanary users
// hunt, for tests/peers/check-leak-suspects.sh: a static cache map of
// orders never evicted, a listener list never unsubscribed, a thread's
// ThreadLocal context never removed, and strings copied instead of shared.
// Prints what it holds, "ready", then waits to be dumped.
//
// SPDX-License-Identifier: GPL-3.0-or-later
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

public class Leaks {
    static final int ORDERS = 3000;
    static final int LISTENERS = 3000;
    static final int CONTEXT_BYTES = 2 << 20;
    static final int COPIES = 2000;

    static final class Order {
        final long id;
        final String customer;
        final byte[] lines = new byte[2000];
        Order(long id, String customer) { this.id = id; this.customer = customer; }
    }

    static final class OrderCache {
        static final Map<Long, Order> CACHE = new HashMap<>();
    }

    static final class Listener {
        final int[] state = new int[200];
    }

    static final class EventBus {
        static final List<Listener> LISTENERS = new ArrayList<>();
    }

    static final class Context {
        final byte[] data = new byte[CONTEXT_BYTES];
    }

    static final ThreadLocal<Context> CONTEXT = new ThreadLocal<>();
    static final List<String> names = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < ORDERS; i++)
            OrderCache.CACHE.put((long) i, new Order(i, "customer " + (i % 10)));
        for (int i = 0; i < LISTENERS; i++)
            EventBus.LISTENERS.add(new Listener());
        for (int i = 0; i < COPIES; i++)
            names.add(new String("duplicated name".toCharArray()));
        CountDownLatch set = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            CONTEXT.set(new Context());
            set.countDown();
            try { Thread.sleep(Long.MAX_VALUE); } catch (InterruptedException e) { }
        }, "request-worker");
        worker.setDaemon(true);
        worker.start();
        set.await();
        System.out.println("orders " + ORDERS);
        System.out.println("listeners " + LISTENERS);
        System.out.println("context " + CONTEXT_BYTES);
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
