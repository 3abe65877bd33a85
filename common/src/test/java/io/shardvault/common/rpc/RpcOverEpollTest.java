package io.shardvault.common.rpc;

/** The protocol suite on the epoll transport, which every Linux machine we run on offers. */
class RpcOverEpollTest extends AbstractRpcTest {
    @Override
    boolean nativeTransport() {
        return true;
    }
}
