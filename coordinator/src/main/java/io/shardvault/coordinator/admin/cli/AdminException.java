package io.shardvault.coordinator.admin.cli;

/** A failure the CLI reports as one line and an exit code, without a stack trace. */
final class AdminException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    AdminException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
