package io.shardvault.coordinator.certs;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The cluster CA in a directory, and the service certificates it issues. Files, all PEM:
 *
 * <table>
 *   <caption>Files under the directory</caption>
 *   <tr><th>file</th><th>holds</th><th>mode</th></tr>
 *   <tr><td>ca.crt</td><td>the CA's self-signed certificate: every service's {@code tls.ca}</td><td>0644</td></tr>
 *   <tr><td>ca.key</td><td>the CA's PKCS#8 private key: keep it off the service hosts</td><td>0600</td></tr>
 *   <tr><td>NAME.crt</td><td>a service's certificate, then the CA's: its {@code tls.certificate}</td><td>0644</td></tr>
 *   <tr><td>NAME.key</td><td>the service's PKCS#8 private key: its {@code tls.key}</td><td>0600</td></tr>
 * </table>
 *
 * <p>A service certificate is valid for TLS servers and clients (EKU serverAuth and clientAuth): every
 * service is both. Its subject alternative names are the host names (DNS entries) and addresses (IP
 * entries) its peers dial; a client refuses a server whose certificate does not name the address it
 * dialled. Keys are EC P-256 (the default) or RSA 3072. Files are written to a temporary name and
 * moved in place, keys created 0600 from the start. Nothing is ever replaced unless asked: an existing
 * CA is kept, and an existing certificate is kept when it names the same SANs and was issued by this
 * CA, else refused.
 *
 * <p>Not thread-safe for the same directory (two processes issuing the same name race); stateless
 * otherwise.
 */
public final class ClusterCa {
    /** Key algorithms offered. */
    public enum Algorithm {
        /** EC on P-256, signed SHA256withECDSA. */
        EC,
        /** RSA 3072, signed SHA256withRSA. */
        RSA
    }

    /** What a call did. */
    public enum Outcome {
        CREATED,
        KEPT,
        REPLACED
    }

    public static final String CA_CERT = "ca.crt";
    public static final String CA_KEY = "ca.key";
    private static final Duration CA_VALIDITY = Duration.ofDays(3650);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path dir;
    private final Clock clock;

    public ClusterCa(Path dir, Clock clock) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The CA certificate's file ({@code tls.ca}). */
    public Path caCertificate() {
        return dir.resolve(CA_CERT);
    }

    /** A service's certificate chain file ({@code tls.certificate}). */
    public Path certificate(String name) {
        return dir.resolve(checkName(name) + ".crt");
    }

    /** A service's key file ({@code tls.key}). */
    public Path key(String name) {
        return dir.resolve(checkName(name) + ".key");
    }

    /**
     * Creates the CA, or keeps the one there.
     *
     * @param force replace an existing CA (every certificate it issued then stops being trusted)
     */
    public Outcome createCa(Algorithm algorithm, boolean force) throws IOException {
        boolean exists = Files.exists(caCertificate()) || Files.exists(dir.resolve(CA_KEY));
        if (exists && !force) {
            return Outcome.KEPT;
        }
        Files.createDirectories(dir);
        KeyPair pair = generate(algorithm);
        Instant now = clock.instant();
        X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, "shardvault")
                .addRDN(BCStyle.CN, "shardvault cluster CA " + now.getEpochSecond()).build();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(),
                    Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(CA_VALIDITY)), subject,
                    pair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            ext.createSubjectKeyIdentifier(pair.getPublic()));
            X509CertificateHolder ca = builder.build(signer(algorithm, pair.getPrivate()));
            writeKey(dir.resolve(CA_KEY), pair.getPrivate());
            writePem(caCertificate(), pem(ca));
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot create the cluster CA in " + dir + ": " + e.getMessage(), e);
        }
        return exists ? Outcome.REPLACED : Outcome.CREATED;
    }

    /**
     * Issues a certificate and key for service {@code name}, valid for {@code sans}, or keeps the one
     * there when it names the same SANs and was issued by this CA.
     *
     * @param sans host names and IP addresses its peers dial
     * @param force replace an existing certificate whatever it says
     * @throws FileAlreadyExistsException when a different certificate exists and {@code force} is false
     * @throws NoSuchFileException when there is no CA in the directory
     */
    public Outcome issue(String name, List<String> sans, Algorithm algorithm, Duration validity, boolean force)
            throws IOException {
        checkName(name);
        if (sans.isEmpty()) {
            throw new IllegalArgumentException("a service certificate needs at least one SAN (host name or IP)");
        }
        GeneralNames altNames = new GeneralNames(sans.stream().map(ClusterCa::generalName).toArray(GeneralName[]::new));
        X509CertificateHolder ca = readCertificate(caCertificate());
        boolean exists = Files.exists(certificate(name)) || Files.exists(key(name));
        if (exists && !force) {
            if (Files.exists(certificate(name)) && Files.exists(key(name))) {
                X509CertificateHolder existing = readCertificate(certificate(name));
                if (existing.getIssuer().equals(ca.getSubject())
                        && altNames.equals(GeneralNames.fromExtensions(existing.getExtensions(),
                        Extension.subjectAlternativeName))) {
                    return Outcome.KEPT;
                }
            }
            throw new FileAlreadyExistsException(certificate(name).toString(), null,
                    "a different certificate (other SANs, or another CA) is there; --force replaces it");
        }
        PrivateKey caKey = readKey(dir.resolve(CA_KEY));
        KeyPair pair = generate(algorithm);
        Instant now = clock.instant();
        X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, "shardvault")
                .addRDN(BCStyle.CN, name).build();
        int usage = algorithm == Algorithm.RSA ? KeyUsage.digitalSignature | KeyUsage.keyEncipherment
                : KeyUsage.digitalSignature;
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509Certificate caCert = new JcaX509CertificateConverter().getCertificate(ca);
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(ca.getSubject(), serial(),
                    Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(validity)), subject,
                    pair.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(usage))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                            new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
                    .addExtension(Extension.subjectAlternativeName, false, altNames)
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            ext.createSubjectKeyIdentifier(pair.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(caCert));
            X509CertificateHolder leaf = builder.build(signer(algorithmOf(caKey), caKey));
            writeKey(key(name), pair.getPrivate());
            writePem(certificate(name), pem(leaf) + pem(ca));
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot issue a certificate for " + name + ": " + e.getMessage(), e);
        }
        return exists ? Outcome.REPLACED : Outcome.CREATED;
    }

    private static String checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a service name is 1-64 of [A-Za-z0-9._-], starting with a letter "
                    + "or digit: " + name);
        }
        return name;
    }

    private static GeneralName generalName(String san) {
        String s = san.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("an empty SAN");
        }
        if (isIpLiteral(s)) {
            return new GeneralName(GeneralName.iPAddress, s);
        }
        if (!s.matches("(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*")) {
            throw new IllegalArgumentException("not a host name or IP address: " + s);
        }
        return new GeneralName(GeneralName.dNSName, s.toLowerCase(Locale.ROOT));
    }

    private static boolean isIpLiteral(String s) {
        if (s.contains(":")) {
            return true;
        }
        return s.matches("\\d{1,3}(\\.\\d{1,3}){3}") && validAddress(s);
    }

    private static boolean validAddress(String s) {
        try {
            // A literal: no name lookup happens.
            InetAddress.getByName(s);
            return true;
        } catch (IOException e) {
            throw new IllegalArgumentException("not an IP address: " + s, e);
        }
    }

    private static KeyPair generate(Algorithm algorithm) throws IOException {
        try {
            if (algorithm == Algorithm.EC) {
                KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
                g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
                return g.generateKeyPair();
            }
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(3072, RANDOM);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot generate a " + algorithm + " key: " + e.getMessage(), e);
        }
    }

    private static Algorithm algorithmOf(PrivateKey key) {
        return "RSA".equals(key.getAlgorithm()) ? Algorithm.RSA : Algorithm.EC;
    }

    private static ContentSigner signer(Algorithm algorithm, PrivateKey key) throws OperatorCreationException {
        return new JcaContentSignerBuilder(algorithm == Algorithm.EC ? "SHA256withECDSA" : "SHA256withRSA").build(key);
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).add(BigInteger.ONE);
    }

    private static String pem(Object object) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        }
        return out.toString();
    }

    private static X509CertificateHolder readCertificate(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString(), null, "no cluster CA here: run `shardvault certs ca` first");
        }
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser parser = new PEMParser(in)) {
            Object o = parser.readObject();
            if (o instanceof X509CertificateHolder holder) {
                return holder;
            }
            throw new IOException(file + " does not start with a PEM certificate");
        }
    }

    private static PrivateKey readKey(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString(), null, "the CA's key is not here");
        }
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser parser = new PEMParser(in)) {
            Object o = parser.readObject();
            if (o instanceof PrivateKeyInfo info) {
                return new JcaPEMKeyConverter().getPrivateKey(info);
            }
            // Never the content: it is a secret.
            throw new IOException(file + " does not hold a PEM PKCS#8 private key");
        }
    }

    private static void writeKey(Path file, PrivateKey key) throws IOException {
        String pem = pem(new JcaPKCS8Generator(key, null));
        write(file, pem, "rw-------");
    }

    private static void writePem(Path file, String pem) throws IOException {
        write(file, pem, "rw-r--r--");
    }

    /** Writes a temporary file with {@code mode} from its creation, then moves it over {@code file}. */
    private static void write(Path file, String content, String mode) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
        try {
            Files.writeString(tmp, content, StandardCharsets.US_ASCII);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The SANs of a list given as {@code a,b,c}. */
    public static List<String> splitSans(String list) {
        List<String> out = new ArrayList<>();
        for (String s : list.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return out;
    }
}
