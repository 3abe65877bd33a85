package io.shardvault.common.testing;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when Netty reports a leaked buffer. Registered for every test through JUnit's
 * extension auto-detection (this jar's {@code META-INF/services}), and so installed before any
 * buffer class creates its leak detector. Tests run with paranoid detection, so every buffer is
 * tracked; after each test a few GC rounds and allocations make the detector report what leaked.
 * A leak surfaces in the test that leaked it or, when GC is late, in a later one of the same JVM.
 */
public final class NettyLeakCheck implements AfterEachCallback {
    private static final ConcurrentLinkedQueue<String> LEAKS = new ConcurrentLinkedQueue<>();

    static {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
    }

    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        for (int round = 0; round < 3; round++) {
            System.gc();
            Thread.sleep(10);
            provokeReports();
        }
        List<String> leaks = new ArrayList<>();
        for (String leak; (leak = LEAKS.poll()) != null; ) {
            leaks.add(leak);
        }
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty resource leak(s) detected:\n" + String.join("\n", leaks));
        }
    }

    /** Leak reports are made when a detector tracks a new object. */
    private static void provokeReports() {
        for (ByteBufAllocator alloc : new ByteBufAllocator[] {PooledByteBufAllocator.DEFAULT, ByteBufAllocator.DEFAULT}) {
            alloc.directBuffer(1).release();
            alloc.heapBuffer(1).release();
        }
        Unpooled.directBuffer(1).release();
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        @Override
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                    long maxActive) {
            return new RecordingDetector<>(resource, samplingInterval);
        }
    }

    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        RecordingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            LEAKS.add("LEAK: " + resourceType + records);
            super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            LEAKS.add("LEAK: " + resourceType + " (untraced)");
            super.reportUntracedLeak(resourceType);
        }
    }
}
