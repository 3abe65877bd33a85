package io.shardvault.stash;

import static io.shardvault.stash.StashFixture.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.ShardId;
import io.shardvault.common.crc.Crc32c;
import io.shardvault.common.rpc.RpcClient;
import io.shardvault.common.rpc.RpcClientConfig;
import io.shardvault.common.rpc.RpcMessage;
import io.shardvault.common.rpc.RpcServer;
import io.shardvault.common.rpc.RpcServerConfig;
import io.shardvault.common.rpc.RpcTransport;
import io.shardvault.common.rpc.RpcTransportConfig;
import io.shardvault.stash.api.StashClient;
import io.shardvault.stash.api.StashEntryInfo;
import io.shardvault.stash.api.StashOps;
import io.shardvault.stash.api.internal.StashWire;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client's own checks, against a fake stash that misbehaves. */
@Timeout(60)
class StashClientTest {
    private RpcTransport transport;
    private RpcClient rpc;
    private StashClient client;
    private RpcServer fake;
    private volatile Function<RpcMessage, RpcMessage> answer;

    @BeforeEach
    void setUp() throws Exception {
        transport = RpcTransport.create(new RpcTransportConfig(true, 1));
        rpc = RpcClient.create(transport, RpcClientConfig.defaults());
        client = new StashClient(rpc);
        fake = RpcServer.start(transport, RpcServerConfig.defaults(), new InetSocketAddress("127.0.0.1", 0),
                request -> CompletableFuture.completedFuture(answer.apply(request)));
    }

    @AfterEach
    void tearDown() {
        fake.close();
        rpc.close();
        transport.close();
    }

    private RpcMessage getAnswer(ShardId id, byte[] sent, int crc) {
        StashEntryInfo info = new StashEntryInfo(id, 0, sent.length, crc, 1);
        return new RpcMessage(StashOps.GET, StashWire.encodeEntryInfo(ByteBufAllocator.DEFAULT, info),
                Unpooled.wrappedBuffer(sent));
    }

    @Test
    void getFailsCorruptWhenReceivedBytesMismatchTheirCrc() {
        ShardId id = new ShardId(1, 2, 3);
        byte[] stored = {1, 2, 3, 4, 5};
        byte[] damaged = {1, 2, 3, 4, 6};
        answer = request -> getAnswer(id, damaged, Crc32c.of(stored));
        assertThat(failure(client.get(fake.localAddress(), id)).code()).isEqualTo(ErrorCode.CORRUPT);
    }

    @Test
    void getFailsWhenTheAnswerIsForAnotherId() {
        byte[] bytes = {9};
        answer = request -> getAnswer(new ShardId(1, 2, 4), bytes, Crc32c.of(bytes));
        assertThat(failure(client.get(fake.localAddress(), new ShardId(1, 2, 3))).code())
                .isEqualTo(ErrorCode.INTERNAL);
    }

    @Test
    void malformedAnswersFailTheCall() {
        answer = request -> RpcMessage.ofPayload(request.op(), Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 7}));
        assertThat(failure(client.list(fake.localAddress(), 1, 1, Optional.empty(), 10)).code())
                .isEqualTo(ErrorCode.INTERNAL);
        assertThat(failure(client.stats(fake.localAddress())).code()).isEqualTo(ErrorCode.INTERNAL);
        assertThat(failure(client.get(fake.localAddress(), new ShardId(1, 1, 1))).getMessage())
                .contains("malformed answer");
    }

    @Test
    void putReleasesTheChunkWhenArgumentsAreBad() {
        var chunk = Unpooled.buffer(4).writeInt(1);
        assertThat(client.put(fake.localAddress(), new ShardId(1, 1, 1), -1, 0, chunk)).isCompletedExceptionally();
        assertThat(chunk.refCnt()).isZero();
        assertThat(client.get(null, new ShardId(1, 1, 1))).isCompletedExceptionally();
        assertThat(client.list(fake.localAddress(), 1, 256, Optional.empty(), 1)).isCompletedExceptionally();
        assertThat(client.list(fake.localAddress(), 1, 1, Optional.empty(), 0)).isCompletedExceptionally();
    }
}
