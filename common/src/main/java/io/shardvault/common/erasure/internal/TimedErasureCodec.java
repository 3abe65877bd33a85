package io.shardvault.common.erasure.internal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.shardvault.common.erasure.ErasureCodec;
import io.shardvault.common.erasure.ErasureLayout;
import java.nio.ByteBuffer;

/**
 * A codec that times every call of another.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>{@code shardvault.erasure.encode}</td><td>timer</td><td>codec (native, java), layout (k+m)</td>
 *       <td>one {@link #encode} call: the parity of one stripe</td></tr>
 *   <tr><td>{@code shardvault.erasure.decode}</td><td>timer</td><td>codec, layout</td>
 *       <td>one {@link #decode} call: the missing chunks of one stripe</td></tr>
 * </table>
 * A call that throws (bad arguments) is not recorded. Thread-safe when the codec it wraps is.
 */
public final class TimedErasureCodec implements ErasureCodec {
    private final ErasureCodec codec;
    private final Timer encode;
    private final Timer decode;

    public TimedErasureCodec(ErasureCodec codec, MeterRegistry registry) {
        this.codec = codec;
        String engine = JerasureCodec.ENGINE.equals(codec.engine()) ? "native" : "java";
        String layout = codec.layout().k() + "+" + codec.layout().m();
        this.encode = Timer.builder("shardvault.erasure.encode").description("erasure encode of one stripe")
                .tags("codec", engine, "layout", layout).register(registry);
        this.decode = Timer.builder("shardvault.erasure.decode").description("erasure decode of one stripe")
                .tags("codec", engine, "layout", layout).register(registry);
    }

    @Override
    public ErasureLayout layout() {
        return codec.layout();
    }

    @Override
    public String engine() {
        return codec.engine();
    }

    @Override
    public void encode(ByteBuffer[] data, ByteBuffer[] parity, int chunkLength) {
        long start = System.nanoTime();
        codec.encode(data, parity, chunkLength);
        encode.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    @Override
    public void decode(ByteBuffer[] chunks, boolean[] present, int chunkLength) {
        long start = System.nanoTime();
        codec.decode(chunks, present, chunkLength);
        decode.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
    }
}
