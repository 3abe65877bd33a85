package io.shardvault.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardvault.common.config.ConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class SecretCipherTest {
    private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

    @TempDir
    Path dir;

    private Path keyFile(String name, String... lines) throws Exception {
        Path file = dir.resolve(name);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void sealsUnderTheNewestKeyAndOpensWithAnyListedOne() throws Exception {
        String k1 = SecretCipher.newKeyLine("k1");
        String k2 = SecretCipher.newKeyLine("k2");
        SecretCipher old = SecretCipher.fromFile(keyFile("old", k1));
        SecretCipher both = SecretCipher.fromFile(keyFile("both", "# rotated 2026-11", k1, "", k2));
        assertThat(both.newestKeyId()).isEqualTo("k2");

        String sealedOld = old.seal("AK1", SECRET);
        String sealedNew = both.seal("AK1", SECRET);
        assertThat(sealedOld).startsWith("sv1:k1:").doesNotContain(SECRET);
        assertThat(sealedNew).startsWith("sv1:k2:");
        assertThat(both.seal("AK1", SECRET)).as("a fresh nonce each time").isNotEqualTo(sealedNew);
        assertThat(both.open("AK1", sealedOld)).isEqualTo(SECRET);
        assertThat(both.open("AK1", sealedNew)).isEqualTo(SECRET);
        assertThat(both.isCurrent(sealedNew)).isTrue();
        assertThat(both.isCurrent(sealedOld)).isFalse();
        assertThat(both.isCurrent(SECRET)).isFalse();
        assertThat(both.open("AK1", SECRET)).as("plaintext from before encryption").isEqualTo(SECRET);
        assertThat(SecretCipher.isSealed(SECRET)).isFalse();
    }

    @Test
    void aSecretSealedUnderAnUnlistedKeyIsAClearError() throws Exception {
        String sealed = SecretCipher.fromFile(keyFile("k1", SecretCipher.newKeyLine("k1"))).seal("AK1", SECRET);
        SecretCipher other = SecretCipher.fromFile(keyFile("k2", SecretCipher.newKeyLine("k2")));
        assertThatThrownBy(() -> other.open("AK1", sealed)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("AK1").hasMessageContaining("cluster key k1")
                .hasMessageContaining("catalog.secrets.keyFile does not list");
        // Same id, other bytes: the tag does not verify.
        SecretCipher impostor = SecretCipher.fromFile(keyFile("k1b", SecretCipher.newKeyLine("k1")));
        assertThatThrownBy(() -> impostor.open("AK1", sealed)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not authenticate under cluster key k1");
    }

    @Test
    void aTamperedOrMovedSecretDoesNotOpen() throws Exception {
        String k1 = SecretCipher.newKeyLine("k1");
        String k2 = SecretCipher.newKeyLine("k2");
        SecretCipher cipher = SecretCipher.fromFile(keyFile("keys", k1, k2));
        String sealed = cipher.seal("AK1", SECRET);

        byte[] body = Base64.getDecoder().decode(sealed.substring("sv1:k2:".length()));
        body[body.length / 2] ^= 1;
        String tampered = "sv1:k2:" + Base64.getEncoder().encodeToString(body);
        assertThatThrownBy(() -> cipher.open("AK1", tampered)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("AK1").hasMessageContaining("altered or belongs to another access key");

        assertThatThrownBy(() -> cipher.open("AK2", sealed)).as("moved onto another key record")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("AK2")
                .hasMessageContaining("does not authenticate");
        String relabelled = "sv1:k1:" + sealed.substring("sv1:k2:".length());
        assertThatThrownBy(() -> cipher.open("AK1", relabelled)).as("relabelled with another key id")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("does not authenticate under cluster key k1");
        assertThatThrownBy(() -> cipher.open("AK1", "sv1:k2:AAAA")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("truncated");
    }

    @Test
    void aBadKeyFileIsRefusedNamingTheSettingAndNeverItsBytes() throws Exception {
        String line = SecretCipher.newKeyLine("k1");
        Path open = keyFile("open", line);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> SecretCipher.fromFile(open)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.secrets.keyFile").hasMessageContaining("chmod 600");
        assertThatThrownBy(() -> SecretCipher.fromFile(keyFile("empty", "# nothing yet")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("holds no key");
        assertThatThrownBy(() -> SecretCipher.fromFile(keyFile("short", "k1:" + Base64.getEncoder()
                .encodeToString(new byte[16])))).isInstanceOf(ConfigException.class).hasMessageContaining("AES-256");
        assertThatThrownBy(() -> SecretCipher.fromFile(keyFile("twice", line, line)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("twice").satisfies(e ->
                        assertThat(e.getMessage()).doesNotContain(line.substring(3)));
        assertThatThrownBy(() -> SecretCipher.fromFile(keyFile("noid", line.substring(3))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("line 1");
    }
}
