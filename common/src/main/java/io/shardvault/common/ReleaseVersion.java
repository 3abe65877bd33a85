package io.shardvault.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The release this code belongs to: the Maven project version, written into {@code release.properties}
 * at build time (the only copy; the JARs' {@code --version} and {@code bin/shardvault --version} print
 * it). A service's {@code @Command} names this class as its {@code versionProvider}.
 *
 * <p>Stateless and thread-safe.
 */
public final class ReleaseVersion implements IVersionProvider {
    private static final String RESOURCE = "release.properties";

    /** The version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String current() {
        Properties p = new Properties();
        try (InputStream in = ReleaseVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing beside " + ReleaseVersion.class.getName()
                        + ": the build did not package common's filtered resources");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version");
    }

    /** What {@code --version} prints: {@code shardvault VERSION}. */
    public static String line() {
        return "shardvault " + current();
    }

    @Override
    public String[] getVersion() {
        return new String[] {line()};
    }
}
