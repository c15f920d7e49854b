package compare

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/lmeval/lmeval/stats"
)

// Columns of the table, in order.
var tableHead = []string{"task", "metric", "n", "A", "B", "Δ (B-A)", "CI", "SE", "SE clustered", "test", "p", "p (Holm)", "MDE", "verdict"}

// WriteTable prints each comparison as a table, one row per task (then
// group) and metric, followed by what the rows mean in words.
func WriteTable(w io.Writer, rep *Report) error {
	level := fmt.Sprintf("%g%%", 100*(1-rep.Alpha))
	ci := level + " CI (bootstrap)"
	if rep.BootstrapIters == 0 {
		ci = level + " CI (t)"
	}
	for i, c := range rep.Comparisons {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "B = %s\nA = %s\n", c.B, c.A)
		fmt.Fprintf(w, "paired over the same documents; α = %g; Holm over %d task tests", rep.Alpha, c.HolmTasks)
		if len(c.Groups) > 0 {
			fmt.Fprintf(w, " (groups: %d)", c.HolmGroups)
		}
		if rep.BootstrapIters > 0 {
			fmt.Fprintf(w, "; bootstrap %d replicates, seed %d", rep.BootstrapIters, rep.Seed)
		}
		fmt.Fprintf(w, "; MDE at power %g\n\n", rep.Power)
		head := append([]string(nil), tableHead...)
		head[6] = ci
		var rows [][]string
		for _, r := range append(append([]*Row(nil), c.Tasks...), c.Groups...) {
			rows = append(rows, tableRow(r, rep.BootstrapIters > 0))
		}
		writeMarkdown(w, head, rows)
		fmt.Fprintln(w)
		writeWords(w, rep, c)
	}
	return nil
}

func tableRow(r *Row, boot bool) []string {
	name := r.Name
	if r.Group {
		name += " (group)"
	}
	row := []string{name, r.Key(), "", num4(r.ValueA), num4(r.ValueB), signed(float64(r.ValueB) - float64(r.ValueA)), "", "", "", "", "", "", "", r.Verdict}
	p := r.Paired
	if p == nil {
		return row
	}
	row[2] = fmt.Sprint(p.N)
	if p.Dropped > 0 {
		row[2] += fmt.Sprintf(" (−%d NaN)", p.Dropped)
	}
	row[5] = signed(p.Diff)
	lo, hi := p.Low, p.High
	if boot && p.Boot != nil {
		lo, hi = p.Boot.Low, p.Boot.High
	}
	row[6] = fmt.Sprintf("[%s, %s]", signed(lo), signed(hi))
	row[7] = num4(stats.Number(p.SE))
	if c := p.Cluster; c != nil {
		row[8] = fmt.Sprintf("%s (%d %s)", num4(stats.Number(c.SE)), c.Clusters, plural(c.Clusters, r.ClusterKey))
	}
	row[9] = testName(p)
	row[10] = pval(p.P)
	row[11] = pval(float64(r.PHolm))
	row[12] = num4(stats.Number(p.MDE))
	return row
}

func plural(n int, key string) string {
	if key == "" {
		key = "cluster"
	}
	if n == 1 {
		return key
	}
	if strings.HasSuffix(key, "s") {
		return key + "es"
	}
	return key + "s"
}

// testName is the test with its statistic: "McNemar b=3 c=9", "t = 1.76".
func testName(p *stats.Result) string {
	switch p.Test {
	case stats.TestMcNemar:
		return fmt.Sprintf("McNemar %d/%d", p.McNemar.B, p.McNemar.C)
	case stats.TestPairedT:
		if math.IsNaN(p.Statistic) {
			return "paired t"
		}
		return fmt.Sprintf("paired t = %.2f", p.Statistic)
	case stats.TestStratifiedZ:
		if math.IsNaN(p.Statistic) {
			return "stratified z"
		}
		return fmt.Sprintf("stratified z = %.2f", p.Statistic)
	}
	return p.Test
}

func num4(x stats.Number) string {
	f := float64(x)
	if math.IsNaN(f) {
		return "—"
	}
	return fmt.Sprintf("%.4f", f)
}

func signed(f float64) string {
	if math.IsNaN(f) {
		return "—"
	}
	if f == 0 {
		return "0"
	}
	return fmt.Sprintf("%+.4f", f)
}

func pval(p float64) string {
	switch {
	case math.IsNaN(p):
		return "—"
	case p < 1e-4:
		return fmt.Sprintf("%.1e", p)
	}
	return fmt.Sprintf("%.4f", p)
}

// writeMarkdown writes an aligned Markdown table.
func writeMarkdown(w io.Writer, head []string, rows [][]string) {
	width := make([]int, len(head))
	for i, h := range head {
		width[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		b.WriteString("|")
		for i, c := range cells {
			b.WriteString(c)
			b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)))
			b.WriteString("|")
		}
		fmt.Fprintln(w, b.String())
	}
	line(head)
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
}

// writeWords says which differences are significant.
func writeWords(w io.Writer, rep *Report, c *Comparison) {
	var better, worse, higher, lower, none, same, untested []string
	for _, r := range append(append([]*Row(nil), c.Tasks...), c.Groups...) {
		label := r.Name + " " + r.Key()
		if r.Group {
			label = r.Name + " (group) " + r.Key()
		}
		switch {
		case strings.HasPrefix(r.Verdict, "no difference"):
			same = append(same, label)
		case r.Paired == nil:
			untested = append(untested, label+" ("+r.Note+")")
		case math.IsNaN(r.Paired.P):
			untested = append(untested, label+" ("+strings.TrimPrefix(r.Verdict, "not tested ("))
		case !r.Significant:
			none = append(none, label)
		default:
			s := fmt.Sprintf("%s (Δ %s, p (Holm) %s)", label, signed(r.Paired.Diff), pval(float64(r.PHolm)))
			switch r.Verdict {
			case "B significantly better":
				better = append(better, s)
			case "B significantly worse":
				worse = append(worse, s)
			case "B significantly higher":
				higher = append(higher, s)
			default:
				lower = append(lower, s)
			}
		}
	}
	fmt.Fprintf(w, "At α = %g, Holm-corrected, B (%s) against A (%s):\n", rep.Alpha, c.B, c.A)
	list := func(title string, items []string) {
		if len(items) > 0 {
			fmt.Fprintf(w, "  %s: %s\n", title, strings.Join(items, "; "))
		}
	}
	list("significantly better", better)
	list("significantly worse", worse)
	list("significantly higher (direction unknown)", higher)
	list("significantly lower (direction unknown)", lower)
	if len(better)+len(worse)+len(higher)+len(lower) == 0 {
		fmt.Fprintln(w, "  no difference is significant")
	}
	list("no significant difference", none)
	list("the same score on every document", same)
	list("not tested", untested)
	for _, n := range c.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
}
