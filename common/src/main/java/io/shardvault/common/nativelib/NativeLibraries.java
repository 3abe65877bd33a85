package io.shardvault.common.nativelib;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads the JNI shims that ship in common's jar under {@code native/<os>-<arch>/} (built by
 * {@code common/src/main/native/build.sh}). {@link System#load} needs a file, so a library is copied
 * to a temporary file that is deleted right after loading (Linux keeps the mapping).
 */
public final class NativeLibraries {

    private NativeLibraries() {
    }

    /** The jar path of a library for this platform, e.g. {@code native/linux-x86_64/libjerasure4j.so}. */
    public static String resourcePath(String library) {
        return "native/" + platform() + "/" + library;
    }

    /**
     * Copies {@code library} out of the jar and loads it.
     *
     * @param workdir where the copy goes; null for {@code java.io.tmpdir} (set it where that is noexec)
     * @throws FileNotFoundException when this build has no such library for this platform
     */
    public static void load(String library, String workdir) throws IOException {
        String resource = resourcePath(library);
        try (InputStream in = NativeLibraries.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new FileNotFoundException(resource + " is not on the classpath (built without what it needs, "
                        + "or no build for " + platform() + ")");
            }
            String prefix = library.replace(".so", "") + "-";
            Path file = workdir == null ? Files.createTempFile(prefix, ".so")
                    : Files.createTempFile(Path.of(workdir), prefix, ".so");
            try {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toAbsolutePath().toString());
            } finally {
                Files.deleteIfExists(file);
            }
        }
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
}
