// Two threads handing a turn to each other with LockSupport.park/unpark, as a worker pool hands a task to a parked
// worker: CPU and wall time per hand-off, three rounds. Run: javac PingPong.java && java -cp . PingPong 200000,
// and pinned to one CPU with taskset -c 0 (seventeenth session, wakeups-20261129/handoffs.txt).
import java.util.concurrent.locks.LockSupport;
import java.lang.management.*;
public class PingPong {
    static volatile int turn;
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        for (int round = 0; round < 3; round++) {
            turn = 0;
            Thread[] t = new Thread[2];
            for (int k = 0; k < 2; k++) {
                final int me = k;
                t[k] = new Thread(() -> {
                    for (int i = 0; i < n; i++) {
                        while (turn != me) LockSupport.park();
                        turn = 1 - me;
                        LockSupport.unpark(t[1 - me]);
                    }
                });
            }
            long cpu0 = cpu(); long w0 = System.nanoTime();
            t[0].start(); t[1].start(); t[0].join(); t[1].join();
            long cpu1 = cpu(); long w1 = System.nanoTime();
            System.out.printf("handoffs=%d cpu/handoff=%.1f us wall/handoff=%.1f us%n", 2L * n,
                    (cpu1 - cpu0) / 1e3 / (2.0 * n), (w1 - w0) / 1e3 / (2.0 * n));
        }
    }
    static long cpu() throws Exception {
        String s = new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/self/stat")));
        String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    }
}
