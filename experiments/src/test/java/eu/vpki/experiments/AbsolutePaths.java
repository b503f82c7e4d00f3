package eu.vpki.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds absolute file-system paths in a report's text (HTML tags dropped first): a Unix path of two
 * segments or more that does not continue a word, a URL or a relative path ({@code /work/wt/x},
 * {@code (/tmp/a}; not {@code ../a/b}, {@code EC/s}, {@code http://h/p}, {@code p50 / p99}), or a
 * Windows drive path ({@code C:\}). A published report must name none: they leak the machine's
 * folders and mean nothing on another one.
 */
final class AbsolutePaths {
    private static final Pattern PATH = Pattern.compile("(?<![\\w.:/~\\\\-])(?:/[\\w.@+-]+){2,}|(?<![\\w])[A-Za-z]:\\\\[\\w.]");
    private static final Pattern TAG = Pattern.compile("<[^>]*>");

    private AbsolutePaths() {
    }

    /** Every absolute path in {@code text}. */
    static List<String> in(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = PATH.matcher(TAG.matcher(text).replaceAll(" "));
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }
}
