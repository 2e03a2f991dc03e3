package dev.assay.cases;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A directory of case files one of which fails with an I/O error half-way through, as a file on a failing disk or a
 * lost network mount does; a plain file cannot be made to. The files lie in a zip file system, and the zip is cut
 * inside the failing file's compressed bytes once the file system is open: reading that file hands on its first lines,
 * then ends in an {@link java.io.EOFException}.
 *
 * @param directory the directory holding the files
 */
public record FailingHalfWay(Path directory, FileSystem zip) implements AutoCloseable {
    /**
     * @param scratch where the zip is written
     * @param readable names and texts of the files read whole
     * @param failing the name of the file that fails
     * @param failingText its text; it fails at about half its compressed size
     */
    public static FailingHalfWay write(Path scratch, Map<String, String> readable, String failing, String failingText)
            throws IOException {
        var bytes = new ByteArrayOutputStream();
        long failingStart;
        long failingEnd;
        try (var out = new ZipOutputStream(bytes)) {
            for (var file : readable.entrySet()) {
                out.putNextEntry(new ZipEntry("suite/" + file.getKey()));
                out.write(file.getValue().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
            // Written last, so that cutting it leaves the others whole.
            failingStart = bytes.size();
            out.putNextEntry(new ZipEntry("suite/" + failing));
            out.write(failingText.getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
            failingEnd = bytes.size();
        }
        Path zipFile = Files.write(scratch.resolve("suite.zip"), bytes.toByteArray());
        FileSystem zip = FileSystems.newFileSystem(zipFile);
        // The file system read the zip's directory on opening; the entries' bytes are read when a file is.
        try (var channel = FileChannel.open(zipFile, StandardOpenOption.WRITE)) {
            channel.truncate((failingStart + failingEnd) / 2);
        }
        return new FailingHalfWay(zip.getPath("/suite"), zip);
    }

    @Override
    public void close() throws IOException {
        zip.close();
    }
}
