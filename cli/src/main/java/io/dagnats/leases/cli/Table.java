package io.dagnats.leases.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Columns for people: left-aligned, two spaces apart, the last column not padded. */
final class Table {

    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    Table(String... headers) {
        this.columns = headers.length;
        rows.add(headers);
    }

    Table row(String... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException(cells.length + " cells in a table of " + columns + " columns");
        }
        rows.add(cells);
        return this;
    }

    void print(PrintWriter out) {
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int column = 0; column < columns; column++) {
                widths[column] = Math.max(widths[column], row[column].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int column = 0; column < columns; column++) {
                line.append(row[column]);
                if (column < columns - 1) {
                    line.append(" ".repeat(widths[column] - row[column].length() + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
