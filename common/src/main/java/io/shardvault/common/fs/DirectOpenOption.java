package io.shardvault.common.fs;

import java.nio.file.OpenOption;
import java.util.Optional;

/**
 * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} (O_DIRECT), looked up by name: the class is in
 * {@code jdk.unsupported}, and javac warns about any mention of it (newer javacs also with {@code --release 17}),
 * which {@code -Werror} makes an error. Stateless.
 */
public final class DirectOpenOption {
    private DirectOpenOption() {
    }

    /** The option, or empty where this JDK has none. */
    public static Optional<OpenOption> lookUp() {
        try {
            Object direct = Class.forName("com.sun.nio.file.ExtendedOpenOption").getField("DIRECT").get(null);
            return direct instanceof OpenOption option ? Optional.of(option) : Optional.empty();
        } catch (ReflectiveOperationException | LinkageError e) {
            return Optional.empty();
        }
    }

    /** The option; for code that cannot go on without it. */
    public static OpenOption require() {
        return lookUp().orElseThrow(() -> new UnsupportedOperationException("this JDK has no O_DIRECT open option "
                + "(com.sun.nio.file.ExtendedOpenOption.DIRECT)"));
    }
}
