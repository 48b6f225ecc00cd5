// OrdersAndItems.java: a heap shaped as applications fill theirs, for
// bench/gen-hprof.sh's "real" shape: one ArrayList of N objects (20
// million by default) of two classes, half Orders with a String name (one
// in two unique, the rest shared) and half Items with a byte[] payload
// (one in two their own, the rest shared), about 35 million objects in all.
//
// SPDX-License-Identifier: GPL-3.0-or-later
import java.util.ArrayList;
import java.util.List;

public class OrdersAndItems {
    static final class Order { final long id; final String name; Order(long id, String name) { this.id = id; this.name = name; } }
    static final class Item { final int count; final byte[] payload; Item(int count, byte[] payload) { this.count = count; this.payload = payload; } }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000_000;
        List<Object> all = new ArrayList<>(n);
        String shared = "shared order";
        byte[] sharedPayload = new byte[8];
        for (int i = 0; i < n; i++) {
            if (i % 2 == 0)
                all.add(new Order(i, i % 4 == 0 ? "order " + i : shared));
            else
                all.add(new Item(i, i % 4 == 1 ? new byte[8] : sharedPayload));
        }
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        Thread.sleep(1_200_000);
        System.out.println(all.size());
    }
}
