// Growth.java: a heap that grows between two dumps, for check-java-diff.sh.
//
// Keeps FIRST sessions, says "ready 1" and waits for a line on standard
// input; then keeps MORE sessions and MORE / 2 cache entries (each with
// an int[16]), says "ready 2" and waits again.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class Growth {
    static final List<Object> KEPT = new ArrayList<>();

    static final class Session {
        final byte[] buffer = new byte[256];
        final String id;

        Session(int index) {
            id = "session-" + index;
        }
    }

    static final class CacheEntry {
        final int[] value = new int[16];
    }

    public static void main(String[] args) throws Exception {
        int first = Integer.parseInt(args[0]);
        int more = Integer.parseInt(args[1]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));

        for (int i = 0; i < first; i++)
            KEPT.add(new Session(i));
        System.out.println("ready 1");
        System.out.flush();
        in.readLine();
        for (int i = 0; i < more; i++)
            KEPT.add(new Session(first + i));
        for (int i = 0; i < more / 2; i++)
            KEPT.add(new CacheEntry());
        System.out.println("ready 2");
        System.out.flush();
        in.readLine();
    }
}
