package dev.assay.cases.internal;

import dev.assay.AssayException;
import dev.assay.Json;
import dev.assay.Problem;
import dev.assay.cases.Case;
import dev.assay.cases.SuiteSnapshots;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The cases of a suite too large to hold in memory, kept in a scratch file: each case as its snapshot document, read
 * back and parsed when asked for. Immutable and thread-safe; a case read twice is two equal objects.
 *
 * <p>The scratch file is unlinked as soon as it is made, so nothing else can open it by name and it leaves nothing
 * behind when the process dies; its space is freed when the last view of it ({@link #select} shares it) is collected.
 */
public final class SpilledCases extends AbstractList<Case> implements RandomAccess {
    private static final Cleaner CLEANER = Cleaner.create();

    private final Scratch scratch;
    private final long[] starts;
    private final int[] lengths;
    // Which cases have tags, and their tags (one list shared by the cases with the same tags): a run's reports need
    // them, and reading every case back for them would read the whole file. Positions ascending.
    private final int[] taggedPositions;
    private final List<List<String>> taggedTags;

    private SpilledCases(
            Scratch scratch, long[] starts, int[] lengths, int[] taggedPositions, List<List<String>> taggedTags) {
        this.scratch = scratch;
        this.starts = starts;
        this.lengths = lengths;
        this.taggedPositions = taggedPositions;
        this.taggedTags = taggedTags;
    }

    @Override
    public Case get(int index) {
        return SuiteSnapshots.caseFromJson(document(index));
    }

    /** {@return the case's snapshot document as written}, without parsing it */
    public String document(int index) {
        Objects.checkIndex(index, starts.length);
        return new String(scratch.read(starts[index], lengths[index]), StandardCharsets.UTF_8);
    }

    @Override
    public int size() {
        return starts.length;
    }

    /**
     * {@return the tags of the cases that have any, by case id, in order}: only those cases are read back, for their
     * ids
     */
    public Map<String, List<String>> caseTags() {
        var tags = new LinkedHashMap<String, List<String>>();
        for (int i = 0; i < taggedPositions.length; i++) {
            tags.put(get(taggedPositions[i]).id(), taggedTags.get(i));
        }
        return tags;
    }

    /** {@return these cases at the given positions, in that order}, sharing the scratch file */
    public SpilledCases select(List<Integer> positions) {
        long[] selectedStarts = new long[positions.size()];
        int[] selectedLengths = new int[positions.size()];
        var tagged = new TaggedCases();
        for (int index = 0; index < selectedStarts.length; index++) {
            int position = positions.get(index);
            selectedStarts[index] = starts[position];
            selectedLengths[index] = lengths[position];
            int taggedIndex = Arrays.binarySearch(taggedPositions, position);
            if (taggedIndex >= 0) {
                tagged.add(index, taggedTags.get(taggedIndex));
            }
        }
        return new SpilledCases(scratch, selectedStarts, selectedLengths, tagged.positions(), tagged.tags);
    }

    /** The tagged cases' positions, ascending, and their tags, each distinct list of tags kept once. */
    private static final class TaggedCases {
        private int[] positions = new int[0];
        private final List<List<String>> tags = new ArrayList<>();
        private final Map<List<String>, List<String>> distinct = new HashMap<>();

        void add(int position, List<String> caseTags) {
            if (tags.size() == positions.length) {
                positions = Arrays.copyOf(positions, Math.max(16, positions.length * 2));
            }
            positions[tags.size()] = position;
            tags.add(distinct.computeIfAbsent(caseTags, List::copyOf));
        }

        /** Takes back the cases at {@code size} and after. */
        void truncate(int size) {
            while (!tags.isEmpty() && positions[tags.size() - 1] >= size) {
                tags.removeLast();
            }
        }

        int[] positions() {
            return Arrays.copyOf(positions, tags.size());
        }
    }

    /**
     * Collects cases in memory up to a limit and, past it, in a scratch file. A file's cases can be taken back when the
     * file fails half-way ({@link #size}, {@link #truncate}). Not thread-safe.
     */
    public static final class Builder {
        /** Past this many cases a loaded suite's cases go to a scratch file: about a kilobyte each in memory. */
        public static final int IN_MEMORY_CASES = 10_000;

        private final int inMemoryLimit;
        private List<Case> inMemory = new ArrayList<>();
        private Scratch scratch;
        private final ByteBuffer pending = ByteBuffer.allocate(1 << 16);
        private long[] starts = new long[0];
        private int[] lengths = new int[0];
        private final TaggedCases tagged = new TaggedCases();
        private int count;
        private long end;
        private long pendingStart;

        public Builder() {
            this(IN_MEMORY_CASES);
        }

        public Builder(int inMemoryLimit) {
            this.inMemoryLimit = inMemoryLimit;
        }

        public void add(Case evalCase) {
            if (scratch == null && inMemory.size() < inMemoryLimit) {
                inMemory.add(evalCase);
                count++;
                return;
            }
            if (scratch == null) {
                scratch = Scratch.create();
                List<Case> held = inMemory;
                inMemory = null;
                count = 0;
                held.forEach(this::spill);
            }
            spill(evalCase);
        }

        public int size() {
            return count;
        }

        /** Takes back every case after the first {@code size}. */
        public void truncate(int size) {
            if (size >= count) {
                return;
            }
            if (scratch == null) {
                inMemory.subList(size, count).clear();
            } else {
                flush();
                end = starts[size];
                pendingStart = end;
                tagged.truncate(size);
            }
            count = size;
        }

        /** {@return the cases added}: a plain list when they were few, else a view of the scratch file */
        public List<Case> build() {
            if (scratch == null) {
                return inMemory;
            }
            flush();
            return new SpilledCases(
                    scratch,
                    Arrays.copyOf(starts, count),
                    Arrays.copyOf(lengths, count),
                    tagged.positions(),
                    new ArrayList<>(tagged.tags));
        }

        private void spill(Case evalCase) {
            byte[] document;
            try {
                document = Json.MAPPER.writeValueAsBytes(SuiteSnapshots.CaseDoc.of(evalCase));
            } catch (IOException e) {
                throw new UncheckedIOException("a case could not be written as JSON", e);
            }
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, Math.max(1024, count * 2));
                lengths = Arrays.copyOf(lengths, starts.length);
            }
            if (document.length > pending.remaining()) {
                flush();
            }
            starts[count] = end;
            lengths[count] = document.length;
            if (!evalCase.tags().isEmpty()) {
                tagged.add(count, evalCase.tags());
            }
            count++;
            if (document.length > pending.capacity()) {
                scratch.write(ByteBuffer.wrap(document), end);
                pendingStart = end + document.length;
            } else {
                pending.put(document);
            }
            end += document.length;
        }

        /** Writes the pending bytes where they belong: {@code pendingStart} + what is pending is always {@code end}. */
        private void flush() {
            pending.flip();
            scratch.write(pending, pendingStart);
            pendingStart += pending.limit();
            pending.clear();
        }
    }

    /**
     * The scratch file, closed once no view of it is left. A {@link RandomAccessFile}, not a file channel: a channel is
     * closed for every thread when one thread reading it is interrupted (a cancelled case), a plain file read is not.
     * Reads and writes take turns; each is a few microseconds.
     */
    private static final class Scratch {
        private final RandomAccessFile file;

        private Scratch(RandomAccessFile file) {
            this.file = file;
        }

        static Scratch create() {
            try {
                Path path = Files.createTempFile("assay-cases-", ".jsonl");
                RandomAccessFile file;
                try {
                    file = new RandomAccessFile(path.toFile(), "rw");
                } catch (IOException e) {
                    Files.deleteIfExists(path);
                    throw e;
                }
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    // A system that cannot unlink an open file (Windows): removed when the JVM exits instead.
                    path.toFile().deleteOnExit();
                }
                var scratch = new Scratch(file);
                CLEANER.register(scratch, new Closing(file));
                return scratch;
            } catch (IOException e) {
                throw failed("cannot make a scratch file for the suite's cases", e);
            }
        }

        synchronized void write(ByteBuffer bytes, long position) {
            try {
                file.seek(position);
                file.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
                bytes.position(bytes.limit());
            } catch (IOException e) {
                throw failed("cannot write the suite's scratch file", e);
            } finally {
                // The file stays open while it is used: this scratch is what the cleaner watches.
                Reference.reachabilityFence(this);
            }
        }

        synchronized byte[] read(long position, int length) {
            byte[] bytes = new byte[length];
            try {
                file.seek(position);
                file.readFully(bytes);
            } catch (IOException e) {
                throw failed("cannot read the suite's scratch file", e);
            } finally {
                Reference.reachabilityFence(this);
            }
            return bytes;
        }
    }

    /**
     * {@return a failure of the scratch file as a problem}: {@code suite.scratch_failed}, naming the directory, since
     * the usual cause is a full or read-only temporary directory that {@code java.io.tmpdir} can move
     */
    private static AssayException failed(String what, IOException e) {
        return new AssayException(
                Problem.of(
                                "suite.scratch_failed",
                                what + " in " + System.getProperty("java.io.tmpdir") + ": " + e.getMessage()
                                        + " (a suite of over " + Builder.IN_MEMORY_CASES + " cases is kept there; "
                                        + "-Djava.io.tmpdir=DIR in ASSAY_JAVA_OPTS moves it)")
                        .withDetail("field", "java.io.tmpdir"),
                e);
    }

    /** Closes a scratch file; holds nothing that would keep its views reachable. */
    private record Closing(RandomAccessFile file) implements Runnable {
        @Override
        public void run() {
            try {
                file.close();
            } catch (IOException e) {
                // Nobody waits on a cleaning action; its failure is only worth a line in the log.
                System.getLogger(SpilledCases.class.getName())
                        .log(System.Logger.Level.WARNING, "cannot close a suite's scratch file", e);
            }
        }
    }
}
