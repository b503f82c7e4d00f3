package eu.vpki.admin;

import java.util.List;

/** Fixed-width plain-text tables for the commands' output. */
public final class Tables {
    private Tables() {
    }

    /** {@code rows} (the first one the header) in columns two spaces apart. */
    public static String render(List<List<String>> rows) {
        int columns = rows.get(0).size();
        int[] widths = new int[columns];
        for (List<String> row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                line.append(row.get(c)).append(" ".repeat(widths[c] - row.get(c).length() + 2));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }
}
