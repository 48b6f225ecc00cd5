// VisualVmHeap.java: what VisualVM's heap library (the Debian package
// visualvm) computes for a dump, for tests/check-visualvm.sh: per class the
// instances, shallow and retained bytes, then the objects that retain the most.
//
// SPDX-License-Identifier: GPL-3.0-or-later
import java.io.File;
import java.util.List;
import org.graalvm.visualvm.lib.jfluid.heap.*;

public class VisualVmHeap {
    public static void main(String[] args) throws Exception {
        Heap heap = HeapFactory.createHeap(new File(args[0]));
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        for (JavaClass c : (List<JavaClass>) heap.getAllClasses()) {
            if (c.getInstancesCount() == 0) continue;
            System.out.println("class\t" + c.getName() + "\t" + c.getInstancesCount() + "\t" + c.getAllInstancesSize() + "\t" + c.getRetainedSizeByClass());
        }
        for (Instance i : (List<Instance>) heap.getBiggestObjectsByRetainedSize(top))
            System.out.println("object\t" + i.getInstanceId() + "\t" + i.getJavaClass().getName() + "\t" + i.getSize() + "\t" + i.getRetainedSize());
    }
}
