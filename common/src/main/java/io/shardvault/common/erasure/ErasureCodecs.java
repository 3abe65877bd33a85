package io.shardvault.common.erasure;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardvault.common.erasure.internal.JavaReedSolomonCodec;
import io.shardvault.common.erasure.internal.Jerasure4jLoader;
import io.shardvault.common.erasure.internal.JerasureCodec;
import io.shardvault.common.erasure.internal.TimedErasureCodec;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's source of {@link ErasureCodec}s: picks the engine once, from an
 * {@link ErasureConfig}, logs one line naming it, and hands out one codec per layout (each caches
 * its own matrices).
 *
 * <table>
 *   <caption>Engine choice</caption>
 *   <tr><th>erasure.codec</th><th>native loads</th><th>native missing</th></tr>
 *   <tr><td>auto</td><td>jerasure4j</td><td>java, or startup error if erasure.native.required</td></tr>
 *   <tr><td>native</td><td>jerasure4j</td><td>startup error</td></tr>
 *   <tr><td>java</td><td>java (native never loaded)</td><td>java</td></tr>
 * </table>
 *
 * <p>Thread-safe. Create one per process at startup and pass it to the components that code stripes.
 */
public final class ErasureCodecs {

    private static final Logger LOG = LoggerFactory.getLogger(ErasureCodecs.class);

    private final ErasureConfig config;
    private final boolean useNative;
    private final MeterRegistry registry;
    private final ConcurrentHashMap<ErasureLayout, ErasureCodec> codecs = new ConcurrentHashMap<>();

    private ErasureCodecs(ErasureConfig config, boolean useNative, MeterRegistry registry) {
        this.config = config;
        this.useNative = useNative;
        this.registry = registry;
    }

    /**
     * Resolves the engine and logs it.
     *
     * @throws IllegalStateException when native code is required (by {@code erasure.codec=native} or
     *                               {@code erasure.native.required=true}) and does not load; the
     *                               load failure is its cause
     */
    public static ErasureCodecs create(ErasureConfig config) {
        return create(config, null);
    }

    /**
     * Resolves the engine and logs it; every codec handed out times its calls in {@code registry}
     * ({@code shardvault.erasure.encode} and {@code .decode}, tagged {@code codec=native|java}).
     *
     * @param registry where to record, or {@code null} for no meters
     * @throws IllegalStateException as {@link #create(ErasureConfig)}
     */
    public static ErasureCodecs create(ErasureConfig config, MeterRegistry registry) {
        Objects.requireNonNull(config, "config");
        boolean mustBeNative = config.nativeRequired() || config.codec() == ErasureConfig.Engine.NATIVE;
        if (config.codec() == ErasureConfig.Engine.JAVA) {
            LOG.info("erasure codec: {} (erasure.codec=java; native code not loaded)", JavaReedSolomonCodec.ENGINE);
            return new ErasureCodecs(config, false, registry);
        }
        Throwable cause = Jerasure4jLoader.cause();
        if (cause == null) {
            LOG.info("erasure codec: {} (Jerasure 2 + gf-complete through JNI, erasure.codec={})",
                    JerasureCodec.ENGINE, config.codec().name().toLowerCase(Locale.ROOT));
            return new ErasureCodecs(config, true, registry);
        }
        if (mustBeNative) {
            throw new IllegalStateException("the native erasure codec is required (erasure.codec="
                    + config.codec().name().toLowerCase(Locale.ROOT) + ", erasure.native.required="
                    + config.nativeRequired() + ") but did not load: " + cause, cause);
        }
        LOG.info("erasure codec: {} (native jerasure4j unavailable: {})", JavaReedSolomonCodec.ENGINE, cause.toString());
        return new ErasureCodecs(config, false, registry);
    }

    /** The engine every codec from here uses: {@code "jerasure4j"} or {@code "java"}. */
    public String engine() {
        return useNative ? JerasureCodec.ENGINE : JavaReedSolomonCodec.ENGINE;
    }

    /** The codec of {@code layout}, created on first use and shared afterwards. */
    public ErasureCodec codec(ErasureLayout layout) {
        Objects.requireNonNull(layout, "layout");
        return codecs.computeIfAbsent(layout, l -> {
            ErasureCodec codec = useNative
                    ? new JerasureCodec(l, config.decodeCacheEntries())
                    : new JavaReedSolomonCodec(l, config.decodeCacheEntries());
            return registry == null ? codec : new TimedErasureCodec(codec, registry);
        });
    }
}
