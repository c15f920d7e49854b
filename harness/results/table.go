package results

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/width"

	"github.com/lmeval/lmeval/python/pyval"
)

// Table renders the "results" (column "results") or "groups" (column
// "groups") section as lm-eval's make_table does: one row per metric and
// filter, metrics sorted by key, task name and version on the first row
// only, values as "%.4f", "±" and the stderr ("   N/A" when missing), and
// the higher_is_better arrow. The layout is that of pytablewriter's
// MarkdownTableWriter (1.2, over DataProperty 1.1): centred headers,
// columns at least 3 wide, numeric columns right-aligned and text columns
// left-aligned except their number cells (right-aligned), numbers re-printed
// with the most significant decimal places of any number in the column (so
// a lone 0.0070 prints as 0.007, as in lm-eval's own output).
func (r *Results) Table(column string, sortResults bool) string {
	return markdownTable(r.TableCells(column, sortResults))
}

// TableCells are Table's headers and rows before pytablewriter lays them
// out: the value matrix lm-eval's make_table builds (values as "%.4f"
// text, versions and n-shot as the results hold them).
func (r *Results) TableCells(column string, sortResults bool) (headers []string, rows [][]any) {
	section := r.Results
	first := "Tasks"
	if column == "groups" {
		section, first = r.Groups, "Groups"
	}
	headers = []string{first, "Version", "Filter", "n-shot", "Metric", "", "Value", "", "Stderr"}
	if section != nil {
		depth, keys := r.hierarchy(section.Keys())
		if sortResults {
			keys = section.Keys()
			sort.Strings(keys)
		}
		for _, k := range keys {
			dic, _ := section.Get(k)
			var version any = "    N/A"
			if v, ok := r.Versions[k]; ok {
				version = v
			}
			n := " "
			if v, ok := r.NShot[k]; ok {
				n = pyval.Str(pyValue(v))
			}
			hib := r.HigherIsBetter[k]
			name := any(k)
			if a, ok := dic.Get("alias"); ok {
				name = a
			}
			if d := depth[k]; d > 0 {
				name = Alias(pyval.Str(name), d)
			}
			var items []string
			for _, k := range dic.Keys() {
				if isMetricKey(k) {
					items = append(items, k)
				}
			}
			if len(items) == 0 && len(r.groupChildren(k)) > 0 {
				// A group without aggregation: its name alone.
				rows = append(rows, []any{name, version, "", n, " ", "", " ", "", ""})
				continue
			}
			sort.Strings(items)
			for _, mf := range items {
				v, _ := dic.Get(mf)
				m, f, _ := strings.Cut(mf, ",")
				if strings.HasSuffix(m, "_stderr") {
					continue
				}
				arrow := ""
				if hib != nil {
					if b, ok := hib.Get(m); ok {
						if d, ok := b.(bool); ok { // None has no arrow
							arrow = map[bool]string{true: "↑", false: "↓"}[d]
						}
					}
				}
				val := pyValue(v)
				if fv, ok := val.(float64); ok {
					val = fmt.Sprintf("%.4f", fv)
					if math.IsNaN(fv) || math.IsInf(fv, 0) {
						val = pyval.FloatRepr(fv)
					}
				}
				if se, ok := dic.Get(m + "_stderr," + f); ok {
					s := "   N/A"
					if sv, ok := pyValue(se).(float64); ok {
						s = fmt.Sprintf("%.4f", sv)
					}
					rows = append(rows, []any{name, version, f, n, m, arrow, val, "±", s})
				} else {
					rows = append(rows, []any{name, version, f, n, m, arrow, val, "", ""})
				}
				name, version = "", ""
			}
		}
	}
	return headers, rows
}

// hierarchy is lm-eval's _build_hierarchy_info: each name's depth below
// the groups of group_subtasks, and the names in display order (root
// groups sorted, each followed by its children sorted, depth first; then
// the names in no group, sorted).
func (r *Results) hierarchy(available []string) (map[string]int, []string) {
	avail := map[string]bool{}
	for _, k := range available {
		avail[k] = true
	}
	depth := map[string]int{}
	var ordered []string
	var visit func(name string, d int)
	visit = func(name string, d int) {
		depth[name] = d
		if avail[name] {
			ordered = append(ordered, name)
		}
		children := append([]string(nil), r.groupChildren(name)...)
		sort.Strings(children)
		for _, c := range children {
			visit(c, d+1)
		}
	}
	children := map[string]bool{}
	var groups []string
	if r.GroupSubtasks != nil {
		groups = r.GroupSubtasks.Keys()
		for _, g := range groups {
			c, _ := r.GroupSubtasks.Get(g)
			for _, x := range c {
				children[x] = true
			}
		}
	}
	sort.Strings(groups)
	for _, g := range groups {
		if !children[g] {
			visit(g, 0)
		}
	}
	rest := append([]string(nil), available...)
	sort.Strings(rest)
	for _, k := range rest {
		if _, ok := depth[k]; !ok {
			ordered = append(ordered, k)
		}
	}
	return depth, ordered
}

func (r *Results) groupChildren(name string) []string {
	if r.GroupSubtasks == nil {
		return nil
	}
	c, _ := r.GroupSubtasks.Get(name)
	return c
}

// pyValue maps our JSON-side types to the Python types make_table tests.
func pyValue(v any) any {
	switch x := v.(type) {
	case Float:
		return float64(x)
	case float32:
		return float64(x)
	case int:
		return int64(x)
	}
	return v
}

// Tables is what lm-eval's CLI prints after a run: the results table and,
// when any group aggregates, the groups table, each followed by a blank
// line.
func (r *Results) Tables() string {
	s := r.Table("results", false) + "\n"
	if r.Groups != nil && r.Groups.Len() > 0 {
		s += r.Table("groups", false) + "\n"
	}
	return s
}

// Header is the line lm-eval prints above the tables; numFewshot is the
// --num_fewshot given (nil when none).
func (r *Results) Header(numFewshot any) string {
	c := r.Config
	bs := pyval.Str(pyValue(c.BatchSize))
	if len(c.BatchSizes) > 0 {
		bs += " (" + pyval.Repr(c.BatchSizes) + ")"
	}
	return fmt.Sprintf("%s (%s), gen_kwargs: (%s), limit: %s, num_fewshot: %s, batch_size: %s",
		c.Model, c.ModelArgs, pyval.Str(pyValue(c.GenKwargs)), pyval.Str(pyValue(c.Limit)), pyval.Str(pyValue(numFewshot)), bs)
}

// maxPrecision is DataProperty's DefaultValue.MAX_PRECISION, the most
// decimal places a column prints.
const maxPrecision = 100

// Cell types, after typepy's detection at pytablewriter's strict levels.
type cellType int

const (
	cellNull cellType = 1 << iota
	cellInt
	cellReal
	cellInf
	cellNaN
	cellString
)

type cell struct {
	typ  cellType
	text string  // the value as given (strings)
	num  float64 // numbers
	dp   int     // decimal places of a real
}

func classify(v any) cell {
	switch x := v.(type) {
	case nil:
		return cell{typ: cellNull}
	case int64:
		return cell{typ: cellInt, num: float64(x)}
	case float64:
		switch {
		case math.IsNaN(x):
			return cell{typ: cellNaN, text: "NaN"}
		case math.IsInf(x, 0):
			return cell{typ: cellInf, text: pyval.FloatRepr(x)}
		case x == math.Trunc(x):
			return cell{typ: cellInt, num: x}
		}
		return cell{typ: cellReal, num: x, dp: decimalPlaces(pyval.FloatRepr(x))}
	case string:
		t := strings.TrimSpace(x)
		if t == "" {
			return cell{typ: cellNull, text: x}
		}
		if f, err := strconv.ParseFloat(t, 64); err == nil && !strings.ContainsAny(t, "xXpP_") {
			lt := strings.ToLower(strings.TrimLeft(t, "+-"))
			switch {
			case lt == "nan":
				return cell{typ: cellNaN, text: x}
			case lt == "inf" || lt == "infinity":
				return cell{typ: cellInf, text: x}
			case f == math.Trunc(f):
				return cell{typ: cellInt, num: f, text: x}
			}
			return cell{typ: cellReal, num: f, dp: decimalPlaces(t), text: x}
		}
		return cell{typ: cellString, text: x}
	}
	return cell{typ: cellString, text: fmt.Sprint(v)}
}

// decimalPlaces counts a number's significant decimal places, trailing
// zeros dropped, as DataProperty does ("0.0070" has 3): lm-eval's "%.4f"
// values lose their trailing zeros in the table when no number of the
// column has more places (pytablewriter prints 0.0070 alone as 0.007).
func decimalPlaces(num string) int {
	mant, exp, _ := strings.Cut(strings.ToLower(num), "e")
	_, frac, _ := strings.Cut(mant, ".")
	dp := len(strings.TrimRight(frac, "0"))
	if exp != "" {
		e, _ := strconv.Atoi(exp)
		dp -= e
	}
	return max(dp, 0)
}

// columnType is DataProperty's ColumnDataProperty type from the bitmap of
// its cells' types.
func columnType(bits cellType) cellType {
	float := cellReal | cellInf | cellNaN
	number := float | cellInt
	if bits&(number|cellNull) == bits { // nothing but numbers and nulls
		if popcount(bits&(float|cellNull)) >= 2 || popcount(bits&number) >= 2 {
			return cellReal
		}
	}
	for _, t := range []cellType{cellString, cellReal, cellInt, cellInf, cellNaN, cellNull} {
		if bits&t != 0 {
			return t
		}
	}
	return cellNull
}

// typeCounter is the collections.Counter of cell types DataProperty keeps
// per column: most_common(1) is the highest count, the first counted among
// equals.
type typeCounter struct {
	order  []cellType
	counts map[cellType]int
}

func (c *typeCounter) add(t cellType) {
	if c.counts == nil {
		c.counts = map[cellType]int{}
	}
	if c.counts[t] == 0 {
		c.order = append(c.order, t)
	}
	c.counts[t]++
}

// mostCommon is the most common type so far, 0 when none.
func (c *typeCounter) mostCommon() cellType {
	var best cellType
	for _, t := range c.order {
		if best == 0 || c.counts[t] > c.counts[best] {
			best = t
		}
	}
	return best
}

func popcount(b cellType) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			w += 2
		default:
			w++
		}
	}
	return w
}

func markdownTable(headers []string, rows [][]any) string {
	ncol := len(headers)
	cells := make([][]cell, len(rows))
	bits := make([]cellType, ncol)
	dps := make([][]int, ncol)
	seen := make([]typeCounter, ncol)
	for i, row := range rows {
		cells[i] = make([]cell, ncol)
		for j, v := range row {
			v = pyValue(v)
			c := classify(v)
			// DataProperty types a cell as the column's most common type so
			// far when the cell is of that type at typepy's strictest level:
			// only text changes anything, a non-blank str after mostly text
			// stays text however numeric it reads (a group's version "2.0"
			// after "N/A").
			if s, ok := v.(string); ok && strings.TrimSpace(s) != "" && seen[j].mostCommon() == cellString {
				c = cell{typ: cellString, text: s}
			}
			seen[j].add(c.typ)
			cells[i][j] = c
			bits[j] |= c.typ
			if c.typ == cellInt || c.typ == cellReal {
				dps[j] = append(dps[j], c.dp)
			}
		}
	}
	types := make([]cellType, ncol)
	dp := make([]int, ncol)
	for j := range ncol {
		types[j] = columnType(bits[j])
		// DataProperty: the most decimal places, at most its precision.
		for _, d := range dps[j] {
			dp[j] = min(max(dp[j], d), maxPrecision)
		}
	}
	text := make([][]string, len(rows))
	widths := make([]int, ncol)
	for j, h := range headers {
		widths[j] = max(3, displayWidth(h))
	}
	for i := range rows {
		text[i] = make([]string, ncol)
		for j, c := range cells[i] {
			text[i][j] = render(c, types[j], dp[j])
			widths[j] = max(widths[j], displayWidth(text[i][j]))
		}
	}
	right := func(j int) bool {
		switch types[j] {
		case cellInt, cellReal, cellInf, cellNaN:
			return true
		}
		return false
	}
	// pytablewriter aligns a text column's integers and reals by their own
	// type (right), its other cells by the column's (left).
	rightCell := func(i, j int) bool {
		if types[j] == cellString {
			return cells[i][j].typ == cellInt || cells[i][j].typ == cellReal
		}
		return right(j)
	}
	var b strings.Builder
	b.WriteByte('|')
	for j, h := range headers {
		pad := widths[j] - displayWidth(h)
		b.WriteString(strings.Repeat(" ", pad/2) + h + strings.Repeat(" ", pad-pad/2) + "|")
	}
	b.WriteString("\n|")
	for j := range headers {
		if right(j) {
			b.WriteString(strings.Repeat("-", widths[j]-1) + ":|")
		} else {
			b.WriteString(strings.Repeat("-", widths[j]) + "|")
		}
	}
	b.WriteByte('\n')
	for i := range rows {
		b.WriteByte('|')
		for j, s := range text[i] {
			pad := strings.Repeat(" ", widths[j]-displayWidth(s))
			if rightCell(i, j) {
				b.WriteString(pad + s + "|")
			} else {
				b.WriteString(s + pad + "|")
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// render writes a cell as DataProperty formats it in its column: numbers by
// the column's type (integers as integers, reals with the column's decimal
// places), everything else as given.
func render(c cell, col cellType, dp int) string {
	switch c.typ {
	case cellNull:
		return c.text
	case cellInt, cellReal:
		if col == cellInt || (col == cellString && c.typ == cellInt) {
			return strconv.FormatFloat(c.num, 'f', 0, 64)
		}
		if col == cellReal || col == cellString {
			return strconv.FormatFloat(c.num, 'f', dp, 64)
		}
	}
	if c.text != "" {
		return c.text
	}
	return fmt.Sprint(c.num)
}
