package io.shardvault.coordinator.catalog;

import io.shardvault.common.config.ConfigException;
import io.shardvault.common.config.OwnerOnlyFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals access key secrets under the cluster key before they enter the catalog (its Raft log, RocksDB and
 * snapshots), and opens them in the coordinator, where SigV4 needs them (issue #21).
 *
 * <p>The key file ({@link CatalogConfigKeys#SECRETS_KEY_FILE}) holds one key a line, {@code id:base64} of 32
 * random bytes, {@code #} comments allowed; the last line is the newest key, which seals, and every listed
 * key opens. A sealed secret is {@code sv1:<key id>:<base64(nonce | ciphertext | tag)>}: AES-256-GCM with a
 * random 96-bit nonce, the key id and the access key id as associated data, so a sealed secret copied onto
 * another key record, or relabelled with another key id, fails to open. A stored secret without the
 * {@code sv1:} prefix is plaintext from before encryption (a secret is base64, which has no colon), and opens
 * as is until {@code admin keys rotate-encryption} seals it.
 *
 * <p>Immutable and thread-safe.
 */
public final class SecretCipher {
    private static final String PREFIX = "sv1:";
    private static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom NONCES = new SecureRandom();

    private final Map<String, SecretKey> keys;
    private final String newest;

    private SecretCipher(Map<String, SecretKey> keys, String newest) {
        this.keys = Map.copyOf(keys);
        this.newest = newest;
    }

    /**
     * Reads a key file, refusing one its group or others may open.
     *
     * @throws ConfigException naming the key file's setting when the file is unreadable, open to others, empty
     *         or malformed (a message never holds key bytes)
     */
    public static SecretCipher fromFile(Path file) {
        String key = CatalogConfigKeys.SECRETS_KEY_FILE.name();
        Map<String, SecretKey> keys = new LinkedHashMap<>();
        String newest = null;
        int lineNo = 0;
        for (String line : OwnerOnlyFile.read(key, file).split("\n")) {
            lineNo++;
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            int colon = s.indexOf(':');
            String id = colon < 0 ? "" : s.substring(0, colon);
            if (!id.matches("[A-Za-z0-9_-]{1,32}")) {
                throw new ConfigException(key + " = " + file + " line " + lineNo + ": expected id:base64 with an id of"
                        + " letters, digits, '-' or '_'");
            }
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(s.substring(colon + 1));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(key + " = " + file + " line " + lineNo + ": key " + id + " is not base64");
            }
            if (bytes.length != KEY_BYTES) {
                throw new ConfigException(key + " = " + file + " line " + lineNo + ": key " + id + " has "
                        + bytes.length + " bytes, AES-256 needs " + KEY_BYTES);
            }
            if (keys.put(id, new SecretKeySpec(bytes, "AES")) != null) {
                throw new ConfigException(key + " = " + file + " lists key id " + id + " twice");
            }
            newest = id;
        }
        if (newest == null) {
            throw new ConfigException(key + " = " + file + " holds no key: add a line id:base64 of 32 random bytes");
        }
        return new SecretCipher(keys, newest);
    }

    /**
     * Creates a key file of one fresh random key {@code id}, mode 0600 from its creation (for test clusters and
     * benchmarks; {@code bin/shardvault dev} writes its own the same way).
     *
     * @return {@code file}
     * @throws java.nio.file.FileAlreadyExistsException if it exists: a key file is never overwritten
     */
    public static Path createKeyFile(Path file, String id) throws IOException {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, newKeyLine(id) + "\n", StandardCharsets.UTF_8);
        return file;
    }

    /** A key file line with a fresh random key: what a rotation appends to the key file. */
    public static String newKeyLine(String id) {
        byte[] bytes = new byte[KEY_BYTES];
        NONCES.nextBytes(bytes);
        return id + ":" + Base64.getEncoder().encodeToString(bytes);
    }

    /** The id of the key that seals. */
    public String newestKeyId() {
        return newest;
    }

    /** {@code secret} of access key {@code accessKeyId}, sealed under the newest key. */
    public String seal(String accessKeyId, String secret) {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        byte[] nonce = new byte[NONCE_BYTES];
        NONCES.nextBytes(nonce);
        try {
            Cipher c = cipher(Cipher.ENCRYPT_MODE, newest, nonce, accessKeyId);
            byte[] sealed = c.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            byte[] out = ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
            return PREFIX + newest + ":" + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable in this JVM", e);
        }
    }

    /**
     * The plaintext of a stored secret: opened if sealed, as is if stored before encryption.
     *
     * @throws IllegalStateException naming the access key and the key id when the key file lacks the key
     *         that sealed it, or the sealed secret does not authenticate (tampered, or moved from another
     *         access key)
     */
    public String open(String accessKeyId, String stored) {
        Optional<String> keyId = sealedBy(stored);
        if (keyId.isEmpty()) {
            return stored;
        }
        String id = keyId.get();
        if (!keys.containsKey(id)) {
            throw new IllegalStateException("the secret of access key " + accessKeyId + " is sealed under cluster key "
                    + id + ", which " + CatalogConfigKeys.SECRETS_KEY_FILE.name() + " does not list");
        }
        byte[] in;
        try {
            in = Base64.getDecoder().decode(stored.substring(PREFIX.length() + id.length() + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the sealed secret of access key " + accessKeyId + " is not base64");
        }
        if (in.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new IllegalStateException("the sealed secret of access key " + accessKeyId + " is truncated");
        }
        try {
            Cipher c = cipher(Cipher.DECRYPT_MODE, id, Arrays.copyOf(in, NONCE_BYTES), accessKeyId);
            return new String(c.doFinal(in, NONCE_BYTES, in.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new IllegalStateException("the sealed secret of access key " + accessKeyId + " does not authenticate "
                    + "under cluster key " + id + ": it was altered or belongs to another access key");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable in this JVM", e);
        }
    }

    /** Whether a stored secret is sealed under the newest key: what rotation leaves alone. */
    public boolean isCurrent(String stored) {
        return sealedBy(stored).filter(newest::equals).isPresent();
    }

    /** Whether a stored secret is sealed (else it is plaintext from before encryption). */
    public static boolean isSealed(String stored) {
        return stored.startsWith(PREFIX);
    }

    /** The id of the key that sealed {@code stored}; empty for a plaintext secret. */
    static Optional<String> sealedBy(String stored) {
        if (!stored.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int end = stored.indexOf(':', PREFIX.length());
        return Optional.of(end < 0 ? "" : stored.substring(PREFIX.length(), end));
    }

    private Cipher cipher(int mode, String keyId, byte[] nonce, String accessKeyId) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(mode, keys.get(keyId), new GCMParameterSpec(TAG_BITS, nonce));
        c.updateAAD((keyId + "\0" + accessKeyId).getBytes(StandardCharsets.UTF_8));
        return c;
    }

    @Override
    public String toString() {
        return "SecretCipher[keys=" + keys.keySet() + ", newest=" + newest + "]";
    }
}
