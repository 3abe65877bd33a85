package io.shardvault.common.erasure.internal;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads libjerasure4j once per process and remembers why it failed. The library ships in the jar
 * under {@code native/<os>-<arch>/}; {@link System#load} needs a file, so it is copied to a temporary
 * file that is deleted right after loading (Linux keeps the mapping).
 *
 * <p>Thread-safe: the holder idiom runs the load exactly once.
 */
public final class Jerasure4jLoader {

    /** System property that, when {@code true}, keeps the native library from loading. */
    public static final String DISABLE_PROPERTY = "shardvault.erasure.native.disabled";

    /**
     * System property naming the directory the library is extracted to (default {@code java.io.tmpdir});
     * set it where the temporary directory is mounted noexec.
     */
    public static final String WORKDIR_PROPERTY = "shardvault.erasure.native.workdir";

    /** The ABI version the shim reports from {@code init()}; bumped with any native signature change. */
    static final int ABI_VERSION = 2;

    private static final String LIBRARY = "libjerasure4j.so";

    private Jerasure4jLoader() {
    }

    /** Null when the library is loaded and initialised, else why not. */
    public static Throwable cause() {
        return Holder.CAUSE;
    }

    /** The jar path of the library for this platform, e.g. {@code native/linux-x86_64/libjerasure4j.so}. */
    public static String resourcePath() {
        return "native/" + platform() + "/" + LIBRARY;
    }

    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String osName = os.startsWith("linux") ? "linux" : os.replaceAll("[^a-z0-9]", "");
        String archName = switch (arch) {
            case "amd64", "x86_64", "x86-64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch_64";
            default -> arch.replaceAll("[^a-z0-9_]", "");
        };
        return osName + "-" + archName;
    }

    private static final class Holder {
        static final Throwable CAUSE = load();
    }

    private static Throwable load() {
        if (Boolean.getBoolean(DISABLE_PROPERTY)) {
            return new UnsupportedOperationException("native erasure code disabled by -D" + DISABLE_PROPERTY + "=true");
        }
        String resource = resourcePath();
        try (InputStream in = Jerasure4jLoader.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return new FileNotFoundException(resource + " is not on the classpath (built without the Jerasure "
                        + "headers, or no build for " + platform() + ")");
            }
            String workdir = System.getProperty(WORKDIR_PROPERTY);
            Path file = workdir == null ? Files.createTempFile("libjerasure4j-", ".so")
                    : Files.createTempFile(Path.of(workdir), "libjerasure4j-", ".so");
            try {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toAbsolutePath().toString());
            } finally {
                Files.deleteIfExists(file);
            }
            int abi = Jerasure4j.init();
            if (abi != ABI_VERSION) {
                return new UnsatisfiedLinkError("jerasure4j reports ABI " + abi + ", expected " + ABI_VERSION
                        + (abi < 0 ? " (galois_init_default_field failed)" : ""));
            }
            return null;
        } catch (IOException | LinkageError | SecurityException e) {
            return e;
        }
    }
}
