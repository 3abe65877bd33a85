package io.shardvault.pod;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ShardId;
import io.shardvault.common.config.Settings;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.pod.api.PodAssignment;
import io.shardvault.pod.api.PodClient;
import io.shardvault.pod.api.PodSlot;
import io.shardvault.pod.api.WriteMode;
import io.shardvault.stash.StashConfig;
import io.shardvault.stash.StashServer;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashPage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A real stash server and the clients a coordinator would use, for the pod's fault tests: writes
 * go to the stash (synced) and to the pod in buffered mode, as the small-file write path does.
 * Not thread-safe; one per test.
 */
final class StashFaultFixture implements AutoCloseable {
    static final int VAULT = 1;
    static final int SHARD = 3;

    final Path dir;
    final RpcTransport transport = RpcTransport.create(RpcTransportConfig.defaults());
    final RpcClient rpc = RpcClient.create(transport, RpcClientConfig.defaults()
            .withRequestTimeout(java.time.Duration.ofSeconds(10)));
    final StashClient stashClient = new StashClient(rpc);
    final PodClient podClient = new PodClient(rpc);
    StashServer stash;
    SimpleMeterRegistry stashRegistry;
    InetSocketAddress stashAddress;

    StashFaultFixture(Path dir) throws IOException {
        this.dir = dir;
        startStash(new InetSocketAddress("127.0.0.1", 0));
    }

    void startStash(InetSocketAddress bind) throws IOException {
        stashRegistry = new SimpleMeterRegistry();
        stash = StashServer.start(transport, StashConfig.defaults(dir.resolve("stash")), bind, stashRegistry);
        stashAddress = stash.localAddress();
    }

    void stopStash() {
        stash.close();
        stash = null;
    }

    /** What a coordinator assigns the pod: slot 1:3, this fixture's stash. */
    PodAssignment assignment() {
        return new PodAssignment(List.of(new PodSlot(VAULT, SHARD)),
                List.of(new InetSocketAddress("127.0.0.1", stashAddress.getPort())));
    }

    /** Assigns the pod at {@code pod} {@link #assignment()}, as a coordinator does once it reaches it. */
    void assign(InetSocketAddress pod) {
        podClient.assign(pod, assignment()).join();
    }

    /** Settings of a pod instance (it holds slot 1:3 once {@link #assign}ed). */
    Map<String, Object> podSettings(String flushInterval) {
        Map<String, Object> s = new HashMap<>();
        s.put("pod.name", "p3");
        s.put("pod.stateDir", dir.resolve("pod-state").toString());
        s.put("pod.tomes", dir.resolve("t0") + "," + dir.resolve("t1"));
        s.put("pod.flush.interval", flushInterval);
        s.put("pod.purge.retry.min", "20ms");
        s.put("pod.purge.retry.max", "200ms");
        s.put("pod.purge.sendTimeout", "2s");
        s.put("pod.recovery.timeout", "30s");
        return s;
    }

    PodConfig podConfig(String flushInterval) {
        return PodConfig.from(Settings.of(podSettings(flushInterval)));
    }

    /** The small-file write path: a synced stash copy, then a buffered pod write. */
    void write(InetSocketAddress pod, ShardId id, byte[] data) {
        int crc = Crc32c.of(data);
        stashClient.put(stashAddress, id, 0, crc, Unpooled.wrappedBuffer(data)).join();
        podClient.write(pod, id, 0, crc, WriteMode.BUFFERED, Unpooled.wrappedBuffer(data)).join();
    }

    /** The large-file write path: the chunk at {@code offset} written durably to the pod, with no stash copy. */
    void writeDurable(InetSocketAddress pod, ShardId id, long offset, byte[] data) {
        podClient.write(pod, id, offset, Crc32c.of(data), WriteMode.DURABLE, Unpooled.wrappedBuffer(data)).join();
    }

    /**
     * The small-file write path with the stash's leg late: the buffered pod write, then, once the stash has
     * served the pod's purge of it (the pod synced it first), the stash copy, which must still be acknowledged.
     */
    void writePodFirst(InetSocketAddress pod, ShardId id, byte[] data) throws InterruptedException {
        int crc = Crc32c.of(data);
        long purges = purgesServed();
        podClient.write(pod, id, 0, crc, WriteMode.BUFFERED, Unpooled.wrappedBuffer(data)).join();
        await("the pod's purge of " + id, () -> purgesServed() > purges);
        stashClient.put(stashAddress, id, 0, crc, Unpooled.wrappedBuffer(data)).join();
    }

    /** Purge requests the stash answered OK. */
    long purgesServed() {
        Timer served = stashRegistry.find("shardvault.stash.requests").tags("op", "purge", "outcome", "ok").timer();
        return served == null ? 0 : served.count();
    }

    byte[] read(InetSocketAddress pod, ShardId id, int length) {
        ByteBuf b = podClient.read(pod, id, 0, length).join();
        try {
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    /** Every shard of the slot the stash still holds. */
    List<ShardId> stashed() {
        List<ShardId> out = new ArrayList<>();
        Optional<ShardId> after = Optional.empty();
        for (int pages = 0; pages < 10_000; pages++) {
            StashPage page = stashClient.list(stashAddress, VAULT, SHARD, after, 500).join();
            for (StashEntryInfo info : page.entries()) {
                out.add(info.id());
            }
            if (page.next().isEmpty()) {
                break;
            }
            after = page.next();
        }
        return out;
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        if (stash != null) {
            stash.close();
        }
        rpc.close();
        transport.close();
    }
}
