package io.shardvault.common.rpc;

/** The protocol suite on the NIO transport, the fallback where epoll is missing. */
class RpcOverNioTest extends AbstractRpcTest {
    @Override
    boolean nativeTransport() {
        return false;
    }
}
