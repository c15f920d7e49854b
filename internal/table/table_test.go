package table

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFit(t *testing.T) {
	tb := Table{Columns: []Column{{Header: "NAME"}, {Header: "KIND"}, {Header: "WHERE", Cut: Start}, {Header: "WHY", Cut: End}}}
	tb.Add("arc_easy", "task", "/home/user/lm-eval/lm_eval/tasks/arc/arc_easy.yaml", "yes")
	tb.Add("mmlu_pro_law", "task", "/home/user/lm-eval/lm_eval/tasks/mmlu_pro/mmlu_pro_law.yaml", "no: a Python helper with no native port: utils.process_docs, utils.doc_to_text")
	full := write(t, &tb, 0)
	if got := maxWidth(full); got != 12+2+4+2+59+2+78 {
		t.Errorf("full width %d:\n%s", got, full)
	}
	if !strings.Contains(full, "/home/user/lm-eval/lm_eval/tasks/mmlu_pro/mmlu_pro_law.yaml  no: a Python helper") {
		t.Errorf("full table cut:\n%s", full)
	}
	for _, w := range []int{120, 100, 80, 60} {
		out := write(t, &tb, w)
		if got := maxWidth(out); got > w {
			t.Errorf("width %d: a line of %d:\n%s", w, got, out)
		}
		lines := strings.Split(out, "\n")
		// Names are kept whole; paths keep their end, reasons their start.
		if !strings.HasPrefix(lines[2], "mmlu_pro_law  task  …") || !strings.Contains(lines[2], "law.yaml  no: a Py") || !strings.HasSuffix(lines[2], "…") {
			t.Errorf("width %d: row %q", w, lines[2])
		}
	}
	mid := Table{Columns: []Column{{Header: "WHERE", Cut: Middle}}}
	mid.Add("/home/user/lm-eval/lm_eval/tasks/mmlu_pro/mmlu_pro_law.yaml")
	if lines := strings.Split(write(t, &mid, 31), "\n"); lines[1] != "/home/user…ro/mmlu_pro_law.yaml" {
		t.Errorf("middle cut: %q", lines[1])
	}
	// Equally wide columns give way equally.
	eq := Table{Columns: []Column{{Header: "A", Cut: End}, {Header: "B", Cut: End}}}
	eq.Add(strings.Repeat("a", 50), strings.Repeat("b", 50))
	lines := strings.Split(write(t, &eq, 62), "\n")
	if lines[1] != strings.Repeat("a", 29)+"…  "+strings.Repeat("b", 29)+"…" {
		t.Errorf("equal columns: %q", lines[1])
	}
	// Narrower than the minimum: the columns stop at theirs.
	if got := maxWidth(write(t, &tb, 10)); got != 12+2+4+2+8+2+8 {
		t.Errorf("at the minimum: width %d", got)
	}
}

func write(t *testing.T, tb *Table, width int) string {
	t.Helper()
	var b strings.Builder
	if err := tb.Write(&b, width); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func maxWidth(s string) int {
	m := 0
	for _, l := range strings.Split(s, "\n") {
		m = max(m, utf8.RuneCountInString(l))
	}
	return m
}

func TestWrap(t *testing.T) {
	tb := Table{Columns: []Column{{Header: "NAME", Cut: Wrap}, {Header: "WHERE", Cut: End}}}
	for i := range 9 {
		tb.Add(fmt.Sprintf("task_%d", i), "somewhere/over/the/rainbow.yaml")
	}
	tb.Add("a_task_with_a_very_long_name_indeed", "somewhere/over/the/rainbow.yaml")
	out := write(t, &tb, 30)
	want := `NAME    WHERE
task_0  somewhere/over/the/ra…
`
	if !strings.HasPrefix(out, want) {
		t.Errorf("got\n%s\nwant it to start with\n%s", out, want)
	}
	if !strings.HasSuffix(out, "a_task_with_a_very_long_name_indeed\n        somewhere/over/the/ra…\n") {
		t.Errorf("the long name is not wrapped:\n%s", out)
	}
	if got := maxWidth(strings.ReplaceAll(out, "a_task_with_a_very_long_name_indeed", "")); got > 30 {
		t.Errorf("width %d:\n%s", got, out)
	}
	// Whole when it fits.
	if out := write(t, &tb, 80); strings.Contains(out, "…") || strings.Count(out, "\n") != 11 {
		t.Errorf("fits in 80, yet:\n%s", out)
	}
}
