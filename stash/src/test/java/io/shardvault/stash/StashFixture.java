package io.shardvault.stash;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcException;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashPlacement;
import io.shardvault.stash.internal.ShardStoreException;
import io.shardvault.stash.internal.StashLayout;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/** One stash server on 127.0.0.1 with a client to it; restartable on the same directory. */
final class StashFixture implements AutoCloseable {
    final RpcTransport transport = RpcTransport.create(new RpcTransportConfig(true, 2));
    final RpcClient rpc = RpcClient.create(transport, RpcClientConfig.defaults()
            .withRequestTimeout(Duration.ofSeconds(30)));
    final StashClient client = new StashClient(rpc);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final StashConfig config;
    final Clock clock;
    StashServer server;

    StashFixture(StashConfig config) throws IOException {
        this(config, Clock.systemUTC());
    }

    StashFixture(StashConfig config, Clock clock) throws IOException {
        this.config = config;
        this.clock = clock;
        start();
    }

    static StashConfig config(Path dir) {
        return StashConfig.defaults(dir);
    }

    void start() throws IOException {
        server = StashServer.start(transport, config, new InetSocketAddress("127.0.0.1", 0), registry, clock);
    }

    void restart() throws IOException {
        server.close();
        start();
    }

    /** The database directory of the partition that holds {@code id}, as the server lays them out. */
    Path partitionDir(io.shardvault.common.ShardId id) throws ShardStoreException {
        StashLayout layout = StashLayout.open(config.dataDir(), config.partitions());
        return layout.partitionDirs().get(StashPlacement.partitionOf(id, layout.partitions()));
    }

    InetSocketAddress address() {
        return server.localAddress();
    }

    static ByteBuf chunk(byte[] bytes) {
        return Unpooled.wrappedBuffer(bytes);
    }

    CompletableFuture<Void> put(io.shardvault.common.ShardId id, long offset, byte[] bytes) {
        return client.put(address(), id, offset, Crc32c.of(bytes), chunk(bytes.clone()));
    }

    static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("call failed: " + e, e);
        }
    }

    /** The RpcException a future fails with; fails the test if it succeeds. */
    static RpcException failure(CompletableFuture<?> future) {
        try {
            future.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return RpcException.from(e.getCause());
        } catch (CompletionException e) {
            return RpcException.from(e);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("expected a failure, the call succeeded");
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        rpc.close();
        transport.close();
    }
}
