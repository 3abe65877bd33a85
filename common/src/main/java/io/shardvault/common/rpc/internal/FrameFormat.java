package io.shardvault.common.rpc.internal;

/** The constants of the version-1 frame layout documented in {@code io.shardvault.common.rpc}. */
final class FrameFormat {
    static final int MAGIC = 0x5356;
    static final int VERSION = 1;
    /** length(4) + magic(2) + version(1) + flags(1) + request id(8) + op(2) + header length(2). */
    static final int PREFIX_BYTES = 20;
    /** What the length field counts at the least: everything of the prefix after itself. */
    static final int MIN_LENGTH = PREFIX_BYTES - 4;

    private FrameFormat() {
    }
}
