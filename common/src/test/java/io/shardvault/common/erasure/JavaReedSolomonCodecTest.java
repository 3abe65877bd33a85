package io.shardvault.common.erasure;

import io.shardvault.common.erasure.internal.JavaReedSolomonCodec;

class JavaReedSolomonCodecTest extends AbstractErasureCodecTest {
    @Override
    ErasureCodec newCodec(ErasureLayout layout) {
        return new JavaReedSolomonCodec(layout, 64);
    }
}
