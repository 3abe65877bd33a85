package io.shardvault.common.erasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.erasure.internal.Jerasure4jLoader;
import io.shardvault.common.testing.ChildJvm;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Engine selection. The native-missing cases run in child JVMs with
 * {@code -Dshardvault.erasure.native.disabled=true}, since a loaded library cannot be unloaded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ErasureCodecsTest {

    @Test
    void forcedJavaNeverUsesNative() {
        ErasureCodecs codecs = ErasureCodecs.create(ErasureConfig.defaults().withCodec(ErasureConfig.Engine.JAVA));
        assertThat(codecs.engine()).isEqualTo("java");
        ErasureCodec codec = codecs.codec(new ErasureLayout(16, 4));
        assertThat(codec.engine()).isEqualTo("java");
        assertThat(codecs.codec(new ErasureLayout(16, 4))).isSameAs(codec);
    }

    @Test
    void codecsFromARegistryTimeEncodeAndDecodeByEngine() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ErasureCodecs codecs = ErasureCodecs.create(ErasureConfig.defaults().withCodec(ErasureConfig.Engine.JAVA),
                registry);
        ErasureCodec codec = codecs.codec(new ErasureLayout(4, 2));
        ByteBuffer[] chunks = AlignedBuffers.allocateChunks(6, 64);
        for (int i = 0; i < 4; i++) {
            TestData.fill(chunks[i], 64, 42 + i);
        }
        ByteBuffer[] data = Arrays.copyOfRange(chunks, 0, 4);
        codec.encode(data, Arrays.copyOfRange(chunks, 4, 6), 64);
        String before = TestData.sha256(chunks[1], 64);
        TestData.poison(chunks[1], 64);
        codec.decode(chunks, new boolean[] {true, false, true, true, true, true}, 64);
        assertThat(TestData.sha256(chunks[1], 64)).isEqualTo(before);
        assertThat(registry.get("shardvault.erasure.encode").tags("codec", "java", "layout", "4+2").timer().count())
                .isEqualTo(1);
        assertThat(registry.get("shardvault.erasure.decode").tags("codec", "java", "layout", "4+2").timer().count())
                .isEqualTo(1);
        assertThat(codec.engine()).isEqualTo("java");
    }

    @Test
    void autoAndForcedNativeUseJerasureWhenItLoads() {
        NativeSupport.assumeNative();
        assertThat(ErasureCodecs.create(ErasureConfig.defaults()).codec(new ErasureLayout(4, 2)).engine())
                .isEqualTo("jerasure4j");
        assertThat(ErasureCodecs.create(new ErasureConfig(ErasureConfig.Engine.NATIVE, true, 8)).engine())
                .isEqualTo("jerasure4j");
    }

    @Test
    void unavailableNativeIsReportedWithItsCause() {
        if (!Jerasure.isAvailable()) {
            assertThat(Jerasure.unavailabilityCause()).isNotNull();
            assertThatThrownBy(Jerasure::ensureAvailability).isInstanceOf(UnsatisfiedLinkError.class)
                    .hasCause(Jerasure.unavailabilityCause());
        } else {
            assertThat(Jerasure.unavailabilityCause()).isNull();
            Jerasure.ensureAvailability();
        }
    }

    @Test
    void withNativeDisabledAutoFallsBackAndLogsTheEngine() throws Exception {
        Child child = runChild("auto", "false");
        assertThat(child.exitCode).as(child.output).isZero();
        assertThat(child.output).contains("erasure codec: java (native jerasure4j unavailable")
                .contains("engine=java").contains("available=false").contains(Jerasure.DISABLE_PROPERTY);
    }

    @Test
    void withNativeDisabledRequiredNativeFailsStartupWithTheCause() throws Exception {
        for (String[] args : new String[][] {{"auto", "true"}, {"native", "false"}}) {
            Child child = runChild(args);
            assertThat(child.exitCode).as(child.output).isEqualTo(3);
            assertThat(child.output).contains("IllegalStateException").contains("the native erasure codec is required")
                    .contains("cause=java.lang.UnsupportedOperationException");
        }
    }

    @Test
    void extractsTheLibraryIntoTheConfiguredWorkdir(@TempDir Path workdir) throws Exception {
        NativeSupport.assumeNative();
        Child child = runChild(List.of("-D" + Jerasure4jLoader.WORKDIR_PROPERTY + "=" + workdir), "native", "true");
        assertThat(child.exitCode).as(child.output).isZero();
        assertThat(child.output).contains("engine=jerasure4j");
        try (var files = Files.list(workdir)) {
            assertThat(files).as("extracted library deleted once loaded").isEmpty();
        }
        Child missing = runChild(List.of("-D" + Jerasure4jLoader.WORKDIR_PROPERTY + "=" + workdir.resolve("absent")),
                "auto", "false");
        assertThat(missing.output).contains("engine=java").contains("NoSuchFileException");
    }

    private record Child(int exitCode, String output) {
    }

    private static Child runChild(String... args) throws Exception {
        return runChild(List.of("-D" + Jerasure.DISABLE_PROPERTY + "=true"), args);
    }

    private static Child runChild(List<String> jvmOptions, String... args) throws Exception {
        try (ChildJvm child = ChildJvm.builder(ErasureCodecsProbe.class).jvmArgs(jvmOptions).args(args).start()) {
            int exitCode = child.awaitExit(Duration.ofSeconds(60));
            return new Child(exitCode, String.join("\n", child.output()));
        }
    }
}
