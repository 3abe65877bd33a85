package io.shardvault.coordinator.certs;

import static io.shardvault.coordinator.certs.CertsFixture.certs;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code shardvault certs}: what it writes, and what it refuses to overwrite. */
class CertsCliTest {
    @TempDir
    Path dir;

    @Test
    void caKeepsItsKeyPrivateAndIsNeverReplacedWithoutForce() throws Exception {
        assertThat(certs("ca", "--dir", dir.toString())).isZero();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("ca.key"))))
                .isEqualTo("rw-------");
        X509Certificate ca = chain(dir.resolve("ca.crt")).get(0);
        assertThat(ca.getBasicConstraints()).isZero();
        byte[] before = Files.readAllBytes(dir.resolve("ca.key"));

        assertThat(certs("ca", "--dir", dir.toString())).isZero();
        assertThat(Files.readAllBytes(dir.resolve("ca.key"))).isEqualTo(before);

        assertThat(certs("ca", "--dir", dir.toString(), "--force", "--algorithm", "RSA")).isZero();
        assertThat(Files.readAllBytes(dir.resolve("ca.key"))).isNotEqualTo(before);
        assertThat(chain(dir.resolve("ca.crt")).get(0).getPublicKey().getAlgorithm()).isEqualTo("RSA");
    }

    @Test
    void issuesAServerAndClientCertificateWithItsSansSignedByTheCa() throws Exception {
        assertThat(certs("ca", "--dir", dir.toString())).isZero();
        assertThat(certs("issue", "pod-1", "--dir", dir.toString(), "--san", "10.0.0.5,pod-1.example,::1")).isZero();

        List<X509Certificate> chain = chain(dir.resolve("pod-1.crt"));
        X509Certificate leaf = chain.get(0);
        X509Certificate ca = chain(dir.resolve("ca.crt")).get(0);
        assertThat(chain).hasSize(2);
        leaf.verify(ca.getPublicKey());
        assertThat(leaf.getExtendedKeyUsage()).containsExactlyInAnyOrder("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
        List<String> sans = new ArrayList<>();
        for (List<?> san : leaf.getSubjectAlternativeNames()) {
            sans.add(san.get(0) + "=" + san.get(1));
        }
        assertThat(sans).containsExactlyInAnyOrder("7=10.0.0.5", "2=pod-1.example", "7=0:0:0:0:0:0:0:1");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("pod-1.key"))))
                .isEqualTo("rw-------");
        assertThat(Files.readString(dir.resolve("pod-1.key"))).startsWith("-----BEGIN PRIVATE KEY-----");
    }

    @Test
    void issuingAgainKeepsTheSameCertificateAndRefusesADifferentOneWithoutForce() throws Exception {
        assertThat(certs("ca", "--dir", dir.toString())).isZero();
        assertThat(certs("issue", "stash-0", "--dir", dir.toString(), "--san", "127.0.0.1")).isZero();
        byte[] issued = Files.readAllBytes(dir.resolve("stash-0.crt"));

        assertThat(certs("issue", "stash-0", "--dir", dir.toString(), "--san", "127.0.0.1")).isZero();
        assertThat(certs("issue", "stash-0", "--dir", dir.toString(), "--san", "127.0.0.2")).isEqualTo(1);
        assertThat(Files.readAllBytes(dir.resolve("stash-0.crt"))).isEqualTo(issued);

        assertThat(certs("issue", "stash-0", "--dir", dir.toString(), "--san", "127.0.0.2", "--force")).isZero();
        assertThat(Files.readAllBytes(dir.resolve("stash-0.crt"))).isNotEqualTo(issued);
    }

    @Test
    void refusesWithoutACaAndRefusesNamesThatAreNotFileNames() {
        assertThat(certs("issue", "pod-1", "--dir", dir.toString(), "--san", "127.0.0.1")).isEqualTo(1);
        assertThat(certs("ca", "--dir", dir.toString())).isZero();
        assertThat(certs("issue", "../escape", "--dir", dir.toString(), "--san", "127.0.0.1")).isEqualTo(1);
        assertThat(dir.resolveSibling("escape.key")).doesNotExist();
    }

    private static List<X509Certificate> chain(Path pem) throws Exception {
        try (InputStream in = Files.newInputStream(pem)) {
            Collection<? extends java.security.cert.Certificate> all =
                    CertificateFactory.getInstance("X.509").generateCertificates(in);
            List<X509Certificate> out = new ArrayList<>();
            all.forEach(c -> out.add((X509Certificate) c));
            return out;
        }
    }
}
