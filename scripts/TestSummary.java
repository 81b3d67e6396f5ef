import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What `./cairn test` prints after Maven: how long the run took, the slowest test classes, and every
 * skipped test with the reason it gives, grouped by class and reason (Maven's own log says only how
 * many a class skipped). Reads the Surefire reports written since the run started.
 *
 * <p>Usage: {@code java scripts/TestSummary.java ROOT STARTED_EPOCH_SECONDS}
 */
public final class TestSummary {

    private static final int SLOWEST = 5;

    record Suite(String name, double seconds, int tests) {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        long started = Long.parseLong(args[1]);
        List<Suite> suites = new ArrayList<>();
        Map<String, Integer> skipped = new TreeMap<>();
        int unreadable = 0;
        for (Path report : reports(root, started)) {
            Element suite;
            try {
                suite =
                        DocumentBuilderFactory.newInstance()
                                .newDocumentBuilder()
                                .parse(report.toFile())
                                .getDocumentElement();
            } catch (Exception e) {
                unreadable++; // half-written by a run that was stopped; the others still count
                continue;
            }
            String name = suite.getAttribute("name");
            suites.add(
                    new Suite(
                            name,
                            Double.parseDouble(suite.getAttribute("time").replace(",", "")),
                            Integer.parseInt(suite.getAttribute("tests"))));
            NodeList skips = suite.getElementsByTagName("skipped");
            for (int i = 0; i < skips.getLength(); i++) {
                String key = simpleName(name) + ": " + reason((Element) skips.item(i));
                skipped.merge(key, 1, Integer::sum);
            }
        }
        long took = System.currentTimeMillis() / 1000 - started;
        int tests = suites.stream().mapToInt(Suite::tests).sum();
        System.out.printf(
                "cairn test: %d tests in %d classes, %d min %02d s%n",
                tests, suites.size(), took / 60, took % 60);
        suites.sort(Comparator.comparingDouble(Suite::seconds).reversed());
        StringBuilder slowest = new StringBuilder();
        for (Suite s : suites.subList(0, Math.min(SLOWEST, suites.size()))) {
            slowest.append(slowest.isEmpty() ? "" : ", ")
                    .append(simpleName(s.name()))
                    .append(String.format(" %.0f s", s.seconds()));
        }
        if (!suites.isEmpty()) {
            System.out.println("  slowest classes: " + slowest);
        }
        if (unreadable > 0) {
            System.out.println("  " + unreadable + " report(s) could not be read");
        }
        int skips = skipped.values().stream().mapToInt(Integer::intValue).sum();
        if (skips > 0) {
            System.out.println("  skipped " + skips + ":");
            skipped.forEach((why, n) -> System.out.println("    " + n + " in " + why));
        }
    }

    /**
     * The XML reports of the classes run since {@code started}: those of every module, {@code
     * MODULE/target/surefire-reports} and {@code GROUP/MODULE/target/surefire-reports} (where
     * {@code .ci/run} looks too).
     */
    private static List<Path> reports(Path root, long started) throws IOException {
        List<Path> found = new ArrayList<>();
        for (String pattern : List.of("*/target/surefire-reports", "*/*/target/surefire-reports")) {
            PathMatcher folder = root.getFileSystem().getPathMatcher("glob:" + pattern);
            try (Stream<Path> dirs = Files.walk(root, 4)) {
                for (Path dir :
                        dirs.filter(d -> folder.matches(root.relativize(d)))
                                .filter(Files::isDirectory)
                                .toList()) {
                    try (Stream<Path> files = Files.list(dir)) {
                        files.filter(
                                        p ->
                                                p.getFileName().toString().startsWith("TEST-")
                                                        && p.getFileName()
                                                                .toString()
                                                                .endsWith(".xml"))
                                .filter(p -> modifiedSince(p, started))
                                .forEach(found::add);
                    }
                }
            }
        }
        found.sort(null);
        return found;
    }

    private static boolean modifiedSince(Path p, long started) {
        try {
            return Files.getLastModifiedTime(p).toMillis() / 1000 >= started;
        } catch (IOException e) {
            return false;
        }
    }

    /** The skip's message, or the first line of its exception without JUnit's prefix. */
    private static String reason(Element skip) {
        String text = skip.getAttribute("message");
        if (text.isBlank()) {
            text = skip.getTextContent().strip().lines().findFirst().orElse("");
        }
        // a JUnit condition puts its disabledReason after its own message and " ==> "
        text = text.replaceFirst("^.* ==> ", "");
        text = text.replaceFirst("^org\\.opentest4j\\.TestAbortedException: ", "");
        text = text.replaceFirst("^Assumption failed: ", "").replaceFirst("^skipped: ", "");
        return text.isBlank() ? "(no reason given)" : text;
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
