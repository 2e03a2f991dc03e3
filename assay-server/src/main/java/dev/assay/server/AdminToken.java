package dev.assay.server;

import dev.assay.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The admin token: read from a file in the Assay home, created there (owner-only, as is the home when it does not
 * exist) on first start.
 */
public final class AdminToken {
    public static final String FILE_NAME = "server-token";

    private AdminToken() {}

    /**
     * {@return the token stored in {@code home}, creating a random one first if there is none}
     *
     * @throws UncheckedIOException when the file cannot be read or written
     */
    public static String loadOrCreate(Path home) {
        Path file = home.resolve(FILE_NAME);
        try {
            if (Files.isRegularFile(file)) {
                String stored = Files.readString(file).strip();
                if (!stored.isEmpty()) {
                    return stored;
                }
            }
            OwnerOnly.createDirectories(home);
            byte[] bytes = new byte[24];
            new SecureRandom().nextBytes(bytes);
            String token = HexFormat.of().formatHex(bytes);
            if (!Files.exists(file)) {
                Files.createFile(file);
            }
            // Owner-only before the token is in it: written first, it would be readable under the umask for a moment.
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // Windows: the file inherits the home directory's ACL, which is the user's.
            }
            Files.writeString(file, token + "\n");
            return token;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compares in constant time, so response timing does not reveal how much of a guess was right. */
    static boolean matches(String expected, String presented) {
        return presented != null
                && MessageDigest.isEqual(
                        expected.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
    }
}
