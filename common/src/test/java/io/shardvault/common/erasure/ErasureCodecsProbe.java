package io.shardvault.common.erasure;

/**
 * A child-JVM main for {@link ErasureCodecsTest}: creates {@link ErasureCodecs} from
 * {@code <codec> <nativeRequired>} and prints the outcome; exit 3 when creation throws.
 */
public final class ErasureCodecsProbe {
    private ErasureCodecsProbe() {
    }

    public static void main(String[] args) {
        System.out.println("available=" + Jerasure.isAvailable() + " cause=" + Jerasure.unavailabilityCause());
        try {
            ErasureCodecs codecs = ErasureCodecs.create(new ErasureConfig(
                    ErasureConfig.Engine.valueOf(args[0].toUpperCase(java.util.Locale.ROOT)),
                    Boolean.parseBoolean(args[1]), 16));
            System.out.println("engine=" + codecs.engine());
        } catch (IllegalStateException e) {
            System.out.println(e + " cause=" + e.getCause());
            System.out.flush();
            System.exit(3);
        }
    }
}
