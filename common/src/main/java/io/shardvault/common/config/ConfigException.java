package io.shardvault.common.config;

/**
 * A setting that cannot be used: unparsable, out of range, or unknown. The message names the key
 * and where the value came from (file and line, or the command line). Thrown at startup only.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
