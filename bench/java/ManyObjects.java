// ManyObjects.java: holds millions of small objects (27 million by default) so that its
// heap dump is near 1 GB (bench/gen-hprof.sh).
//
// SPDX-License-Identifier: GPL-3.0-or-later
public class ManyObjects {
    static final class Node { int value; Node next; }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 27_000_000;
        Node head = null;
        for (int i = 0; i < n; i++) {
            Node node = new Node();
            node.value = i;
            node.next = head;
            head = node;
        }
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        Thread.sleep(1_200_000);
        System.out.println(head.value);
    }
}
