package io.shardvault.common.erasure;

import io.shardvault.common.config.ConfigKey;
import java.util.List;
import java.util.Set;

/** The settings of erasure coding, shared by every service that encodes or decodes stripes. */
public final class ErasureConfigKeys {
    private ErasureConfigKeys() {
    }

    public static final ConfigKey<String> CODEC = ConfigKey.ofChoice("erasure.codec", "auto",
            Set.of("auto", "native", "java"),
            "Which engine codes stripes: auto (native Jerasure when it loads, else pure Java), native (fail at "
                    + "startup without it) or java (never load native code). Both produce identical bytes.");
    public static final ConfigKey<Boolean> NATIVE_REQUIRED = ConfigKey.ofBoolean("erasure.native.required", false,
            "When true, a native codec that cannot load is a startup error (with its cause) instead of a fallback "
                    + "to the slower pure-Java codec. Contradicts erasure.codec=java.");
    public static final ConfigKey<Integer> DECODE_CACHE_ENTRIES = ConfigKey.ofInt("erasure.decodeCacheEntries",
            1024, 1, 1_000_000,
            "Decode matrices kept per layout, one per erasure pattern (which k chunks survive); inverting one "
                    + "costs tens of microseconds.");

    /** Every key above, for {@link io.shardvault.common.config.Settings#rejectUnknown}. */
    public static List<ConfigKey<?>> all() {
        return List.of(CODEC, NATIVE_REQUIRED, DECODE_CACHE_ENTRIES);
    }
}
