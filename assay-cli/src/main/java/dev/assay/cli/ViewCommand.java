package dev.assay.cli;

import dev.assay.store.RunIds;
import dev.assay.store.Store;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code assay view}: {@code assay serve} with the same options, which then opens the page on the local database in a
 * browser where there is one (a desktop: macOS, Windows, or a display for {@code xdg-open}), else prints the address to
 * open. The browser gets the page without the admin token, since a command line is visible to every user of the
 * machine: the page reads runs without it on a loopback address, and the address {@code serve} prints carries it.
 */
@Command(
        name = "view",
        description = "Serve the page on the local database, as serve does, and open it in a browser where there is "
                + "one (else print its address); with a run id, open that run.")
final class ViewCommand extends ServeCommand {
    @Parameters(
            arity = "0..1",
            paramLabel = "<run-id>",
            description = "A run to open (a unique prefix is enough); default: the page's start.")
    String runId;

    /** The page's address after the host: the run's, when one was named. */
    private String page = "/";

    @Override
    public Integer call() throws InterruptedException {
        if (runId != null) {
            try (Store store = database.open()) {
                page = "/#/runs/" + RunIds.resolve(store, runId);
            }
        }
        return super.call();
    }

    @Override
    void served(String shownHost, int port, PrintWriter out) {
        String url = "http://" + browsable(shownHost) + ":" + port + page;
        Optional<List<String>> opener = opener(url);
        if (opener.isEmpty()) {
            out.println("No browser to open here (no desktop or display); open " + url);
        } else {
            try {
                new ProcessBuilder(opener.get())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                out.println("Opened " + url + " in the browser (" + opener.get().getFirst() + ")");
            } catch (IOException e) {
                out.println("Could not open a browser (" + e.getMessage() + "); open " + url);
            }
        }
        out.flush();
    }

    /** A wildcard address is no address to browse: the page is then opened on the loopback address. */
    private String browsable(String shownHost) {
        try {
            return InetAddress.getByName(host).isAnyLocalAddress() ? "127.0.0.1" : shownHost;
        } catch (UnknownHostException e) {
            return shownHost;
        }
    }

    /** {@return the command that opens {@code url} in the desktop's browser; empty where there is no desktop} */
    private Optional<List<String>> opener(String url) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("mac")) {
            return Optional.of(List.of("open", url));
        }
        if (os.startsWith("windows")) {
            return Optional.of(List.of("rundll32", "url.dll,FileProtocolHandler", url));
        }
        boolean display = !env.getOrDefault("DISPLAY", "").isBlank()
                || !env.getOrDefault("WAYLAND_DISPLAY", "").isBlank();
        return display && onPath("xdg-open") ? Optional.of(List.of("xdg-open", url)) : Optional.empty();
    }

    private boolean onPath(String program) {
        for (String directory : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, program))) {
                return true;
            }
        }
        return false;
    }
}
