package io.shardvault.common.erasure;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.Settings;
import java.util.Locale;
import java.util.Objects;

/**
 * How {@link ErasureCodecs} picks and sizes its engine.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>codec</td><td>AUTO</td><td>AUTO: native when it loads, else Java; NATIVE or JAVA force one</td></tr>
 *   <tr><td>nativeRequired</td><td>false</td><td>a native codec that cannot load fails startup</td></tr>
 *   <tr><td>decodeCacheEntries</td><td>1,024</td><td>decode matrices cached per layout</td></tr>
 * </table>
 *
 * @param codec              which engine to use
 * @param nativeRequired     whether a missing native library is a startup error
 * @param decodeCacheEntries erasure patterns whose decode matrices are kept, per layout
 */
public record ErasureConfig(Engine codec, boolean nativeRequired, int decodeCacheEntries) {

    /** The engine choice of {@link ErasureConfigKeys#CODEC}. */
    public enum Engine {
        /** Native when it loads, else pure Java. */
        AUTO,
        /** Jerasure through JNI; startup fails without it. */
        NATIVE,
        /** Pure Java; native code is never loaded. */
        JAVA
    }

    public ErasureConfig {
        Objects.requireNonNull(codec, "codec");
        if (decodeCacheEntries < 1) {
            throw new IllegalArgumentException("decodeCacheEntries must be >= 1: " + decodeCacheEntries);
        }
        if (nativeRequired && codec == Engine.JAVA) {
            throw new ConfigException(ErasureConfigKeys.NATIVE_REQUIRED.name() + "=true contradicts "
                    + ErasureConfigKeys.CODEC.name() + "=java");
        }
    }

    public static ErasureConfig from(Settings settings) {
        return new ErasureConfig(Engine.valueOf(settings.get(ErasureConfigKeys.CODEC).toUpperCase(Locale.ROOT)),
                settings.get(ErasureConfigKeys.NATIVE_REQUIRED), settings.get(ErasureConfigKeys.DECODE_CACHE_ENTRIES));
    }

    public static ErasureConfig defaults() {
        return from(Settings.empty());
    }

    /** This config with the engine forced to {@code engine}, for tests and benchmarks. */
    public ErasureConfig withCodec(Engine engine) {
        return new ErasureConfig(engine, nativeRequired && engine != Engine.JAVA, decodeCacheEntries);
    }
}
