package io.shardvault.coordinator.admin.cli;

/** The exit codes of {@code shardvault admin}. */
final class ExitCodes {
    /** The command did what it was asked. */
    static final int OK = 0;
    /** The cluster answered but the operation failed (refused, bad argument, bad credentials). */
    static final int FAILED = 1;
    /** The command line was wrong. */
    static final int USAGE = 2;
    /** Nothing answered at the JMX address. */
    static final int UNREACHABLE = 3;

    private ExitCodes() {
    }
}
