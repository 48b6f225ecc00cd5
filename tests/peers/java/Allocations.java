// Allocations.java: a program with exactly known objects of its own classes,
// kept alive while its heap is dumped (tests/java/make-fixture.sh).
//
// SPDX-License-Identifier: GPL-3.0-or-later
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

public class Allocations {
    static final class Small { int value; }
    static final class Big { long a, b, c; Small link; }

    static final int SMALL = 12345;
    static final int BIG = 678;
    static final int ARRAYS = 9;
    static final int ARRAY_LENGTH = 100;

    static final List<Object> keep = new ArrayList<>();

    // The JDK's classes annotated @Contended, which HotSpot pads: jcmd
    // counts the padding, so Strata must. Made bare, as no constructor
    // of theirs is public.
    static final String[] CONTENDED = {
        "java.util.concurrent.ForkJoinPool",
        "java.util.concurrent.ForkJoinPool$WorkQueue",
        "java.util.concurrent.SubmissionPublisher$BufferedSubscription",
        "java.util.concurrent.atomic.Striped64$Cell",
        "java.util.concurrent.ConcurrentHashMap$CounterCell",
        "java.util.concurrent.Exchanger$Node",
    };

    static void keepContended() throws Exception {
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        Field field = unsafeClass.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        Object unsafe = field.get(null);
        Method allocate = unsafeClass.getMethod("allocateInstance", Class.class);
        for (String name : CONTENDED)
            for (int i = 0; i < 50; i++)
                keep.add(allocate.invoke(unsafe, Class.forName(name)));
    }

    public static void main(String[] args) throws Exception {
        Small[][] smallArrays = new Small[ARRAYS][];
        for (int i = 0; i < ARRAYS; i++)
            smallArrays[i] = new Small[ARRAY_LENGTH];
        for (int i = 0; i < SMALL; i++)
            smallArrays[i % ARRAYS][i % ARRAY_LENGTH] = new Small();
        List<Small> smalls = new ArrayList<>();
        for (int i = 0; i < SMALL; i++)
            smalls.add(new Small());
        for (int i = 0; i < BIG; i++)
            keep.add(new Big());
        keep.add(smalls);
        keep.add(smallArrays);
        // Only where the VM's own sizes are compared (jcmd): VisualVM
        // leaves the padding out.
        if (args.length > 0 && args[0].equals("padded"))
            keepContended();
        // Instances of Small: the list's plus the arrays' last writes.
        System.out.println("Allocations$Small " + (SMALL + ARRAYS * ARRAY_LENGTH));
        System.out.println("Allocations$Big " + BIG);
        System.out.println("Allocations$Small[] " + ARRAYS + " x " + ARRAY_LENGTH);
        System.out.println("Allocations$Small[][] 1 x " + ARRAYS);
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        Thread.sleep(600_000);
    }
}
