// Package table writes plain-text tables whose columns are aligned and,
// given a width (a terminal's), fitted to it: the columns that may give
// way are shortened, widest first, their cells truncated with "…"; a
// column of names is never cut: a name longer than its column is written
// whole on a line of its own, its row continuing on the next.
package table

import (
	"bufio"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// Cut says how a column's cells give way when the table is too wide.
type Cut int

const (
	// Keep: the column is never shortened (names, kinds).
	Keep Cut = iota
	// End keeps a cell's beginning: "a long reas…".
	End
	// Start keeps a cell's end: "…/tasks/mmlu/default.yaml".
	Start
	// Middle keeps both ends, the end longer, for paths and lists:
	// "/home/user/…/tasks/mmlu/default.yaml".
	Middle
	// Wrap never cuts a cell: the column is as wide as nine cells in ten
	// need (narrower only when the others cannot give way any more), and
	// a longer cell ends its line, the rest of the row following on the
	// next, aligned.
	Wrap
)

// Column is a column's heading and how it gives way.
type Column struct {
	Header string
	Cut    Cut
	// Min is the narrowest the column is cut to (at least its header's
	// width, and 8).
	Min int
}

// Table is a header and rows of cells, one per column.
type Table struct {
	Columns []Column
	Rows    [][]string
}

// gap is the space between two columns.
const gap = 2

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Write writes the table to w. With width > 0 it shortens the columns
// that may give way so that each line fits width characters, as far as
// their minimum widths allow; with width <= 0 every cell is written whole.
// The last column is not padded.
func (t *Table) Write(w io.Writer, width int) error {
	widths := t.fit(width)
	// Buffered: a listing has thousands of rows.
	bw := bufio.NewWriterSize(w, 1<<16)
	var line strings.Builder
	row := func(cells []string) {
		line.Reset()
		at := 0 // the line's width so far
		for i, c := range t.Columns {
			cell := ""
			if i < len(cells) {
				cell = cells[i]
			}
			cell = clip(cell, widths[i], c.Cut)
			line.WriteString(cell)
			at += utf8.RuneCountInString(cell)
			if i == len(t.Columns)-1 {
				break
			}
			next := gap
			for j := range i + 1 {
				next += widths[j] + gap
			}
			next -= gap
			if at > next-gap {
				// A wrapped cell: the row goes on below, aligned.
				line.WriteString("\n")
				at = 0
			}
			line.WriteString(strings.Repeat(" ", next-at))
			at = next
		}
		bw.WriteString(strings.TrimRight(line.String(), " "))
		bw.WriteByte('\n')
	}
	header := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		header[i] = c.Header
	}
	row(header)
	for _, r := range t.Rows {
		row(r)
	}
	return bw.Flush()
}

// fit returns each column's width: its widest cell, or, when the line
// would not fit width, the columns that may give way capped at one level,
// the highest that fits (never below their minimum): so the widest give
// way first, and equally wide ones equally.
func (t *Table) fit(width int) []int {
	n := len(t.Columns)
	widths := make([]int, n)
	mins := make([]int, n)
	for i, c := range t.Columns {
		widths[i] = utf8.RuneCountInString(c.Header)
		mins[i] = max(c.Min, widths[i], 8)
	}
	for _, r := range t.Rows {
		for i := range min(len(r), n) {
			widths[i] = max(widths[i], utf8.RuneCountInString(r[i]))
		}
	}
	if width <= 0 {
		return widths
	}
	total := gap * (n - 1)
	for _, w := range widths {
		total += w
	}
	if total <= width {
		return widths
	}
	// Wrap columns first give up their longest tenth.
	for i, c := range t.Columns {
		if c.Cut == Wrap {
			widths[i] = max(percentile90(t.Rows, i), utf8.RuneCountInString(c.Header))
			mins[i] = utf8.RuneCountInString(c.Header)
		}
	}
	capped := func(level int) ([]int, int) {
		out := make([]int, n)
		total := gap * (n - 1)
		for i, c := range t.Columns {
			out[i] = widths[i]
			if c.Cut != Keep && c.Cut != Wrap && widths[i] > level {
				out[i] = max(level, min(mins[i], widths[i]))
			}
			total += out[i]
		}
		return out, total
	}
	top := 0
	for _, w := range widths {
		top = max(top, w)
	}
	if _, total := capped(top); total <= width {
		return widths
	}
	lo, hi := 0, top // capped(lo) fits, or lo is 0; capped(hi) does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if _, total := capped(mid); total <= width {
			lo = mid
		} else {
			hi = mid
		}
	}
	out, total := capped(lo)
	// Then, if need be, the wrap columns down to their minimum.
	for i, c := range t.Columns {
		if c.Cut == Wrap && total > width {
			d := min(out[i]-mins[i], total-width)
			out[i] -= d
			total -= d
		}
	}
	// What is left goes, a character each, to the columns cut at lo.
	for i, c := range t.Columns {
		if total >= width {
			break
		}
		if c.Cut != Keep && out[i] == lo && widths[i] > lo {
			out[i]++
			total++
		}
	}
	return out
}

// percentile90 is the width nine in ten cells of column i fit.
func percentile90(rows [][]string, i int) int {
	ws := make([]int, 0, len(rows))
	for _, r := range rows {
		if i < len(r) {
			ws = append(ws, utf8.RuneCountInString(r[i]))
		}
	}
	if len(ws) == 0 {
		return 0
	}
	slices.Sort(ws)
	return ws[(len(ws)-1)*9/10]
}

// clip shortens s to w characters, marking the cut with "…".
func clip(s string, w int, cut Cut) string {
	n := utf8.RuneCountInString(s)
	if n <= w || cut == Keep || cut == Wrap {
		return s
	}
	r := []rune(s)
	switch cut {
	case Start:
		return "…" + string(r[n-(w-1):])
	case Middle:
		head := (w - 1) / 3
		return string(r[:head]) + "…" + string(r[n-(w-1-head):])
	}
	return string(r[:w-1]) + "…"
}
