package io.shardvault.coordinator.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A buffer that answers a call after its wait gave up is released, not leaked. */
class BoundedTest {

    @Test
    void aBufferArrivingAfterTheWaitTimedOutIsReleased() {
        CompletableFuture<ByteBuf> read = new CompletableFuture<>();
        assertThatThrownBy(() -> Bounded.await(read, Duration.ofMillis(10), "read of a chunk"))
                .isInstanceOf(IOException.class).hasMessageContaining("read of a chunk: no answer within");
        ByteBuf late = Unpooled.buffer(8);
        read.complete(late);
        assertThat(late.refCnt()).isZero();
    }

    /** A worker closed in the middle of a call (a rebuild or decommission stopped) interrupts its wait. */
    @Test
    void aBufferArrivingAfterTheWaitWasInterruptedIsReleased() {
        CompletableFuture<ByteBuf> read = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> Bounded.await(read, Duration.ofSeconds(30), "read of a chunk"))
                .isInstanceOf(InterruptedException.class);
        ByteBuf late = Unpooled.buffer(8);
        read.complete(late);
        assertThat(late.refCnt()).isZero();
    }
}
