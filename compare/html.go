package compare

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lmeval/lmeval/internal/chart"
	"github.com/lmeval/lmeval/stats"
)

// Colors of the forest plot and the verdicts.
var (
	colorBetter = color.RGBA{R: 0x1a, G: 0x7f, B: 0x37, A: 0xff}
	colorWorse  = color.RGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}
	colorOther  = color.RGBA{R: 0x44, G: 0x55, B: 0x66, A: 0xff}
)

// ForestPlot draws a comparison's differences as a forest plot: one row
// per task (and group) and metric with paired statistics, the mean
// difference B - A as a point and its confidence interval as a bar
// (bootstrap when there is one, else the t interval), a line at zero;
// significant rows (Holm) are green when B is better and red when worse.
// The result is an SVG document (gonum.org/v1/plot).
func ForestPlot(c *Comparison, alpha float64) ([]byte, error) {
	var rows []*Row
	for _, r := range append(append([]*Row(nil), c.Tasks...), c.Groups...) {
		if r.Paired != nil && !math.IsNaN(r.Paired.Diff) {
			rows = append(rows, r)
		}
	}
	p := chart.New()
	p.Title.Text = fmt.Sprintf("B − A with %g%% confidence intervals", 100*(1-alpha))
	p.X.Label.Text = "difference B − A"
	p.Y.Padding = 0
	n := len(rows)
	var ticks []plot.Tick
	lo, hi := 0.0, 0.0
	groups := map[color.RGBA]*struct {
		pts  plotter.XYs
		errs plotter.XErrors
	}{}
	for i, r := range rows {
		y := float64(n - 1 - i)
		label := r.Name + " " + r.Metric
		if r.Filter != "none" {
			label += " (" + r.Filter + ")"
		}
		if r.Group {
			label += " [group]"
		}
		ticks = append(ticks, plot.Tick{Value: y, Label: label})
		d := r.Paired.Diff
		l, h := ciOf(r.Paired)
		if math.IsNaN(l) || math.IsNaN(h) {
			l, h = d, d
		}
		lo, hi = math.Min(lo, l), math.Max(hi, h)
		col := rowColor(r)
		g, ok := groups[col]
		if !ok {
			g = &struct {
				pts  plotter.XYs
				errs plotter.XErrors
			}{}
			groups[col] = g
		}
		g.pts = append(g.pts, plotter.XY{X: d, Y: y})
		g.errs = append(g.errs, struct{ Low, High float64 }{d - l, h - d})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.8, float64(n)-0.2
	pad := 0.08 * (hi - lo)
	if hi-lo < 1e-9 {
		pad = 0.01 // every difference 0: a readable axis around it
	}
	p.X.Min, p.X.Max = lo-pad, hi+pad
	p.Add(plotter.NewGrid())
	zero := plotter.XYs{{X: 0, Y: -0.8}, {X: 0, Y: float64(n) - 0.2}}
	if line, err := plotter.NewLine(zero); err == nil {
		line.LineStyle.Color = color.Gray{Y: 0x66}
		line.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(line)
	}
	for _, col := range []color.RGBA{colorOther, colorWorse, colorBetter} {
		g, ok := groups[col]
		if !ok {
			continue
		}
		bars := &plotter.XErrorBars{XYs: g.pts, XErrors: g.errs, CapWidth: vg.Points(6)}
		bars.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.4)}
		pts, err := plotter.NewScatter(g.pts)
		if err != nil {
			return nil, err
		}
		pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		p.Add(bars, pts)
	}
	return chart.SVG(vg.Points(720), vg.Points(90+24*float64(max(n, 1))), p)
}

// ciOf is the interval a row shows: the bootstrap's when there is one.
func ciOf(r *stats.Result) (float64, float64) {
	if r.Boot != nil {
		return r.Boot.Low, r.Boot.High
	}
	return r.Low, r.High
}

func rowColor(r *Row) color.RGBA {
	switch r.Verdict {
	case "B significantly better":
		return colorBetter
	case "B significantly worse":
		return colorWorse
	}
	return colorOther
}

// WriteHTML writes the report as one self-contained HTML page: per
// comparison a forest plot (inline SVG), the verdicts in words, and the
// tables of tasks and groups. No script, style sheet or font is fetched.
func WriteHTML(w io.Writer, rep *Report) error {
	type section struct {
		C      *Comparison
		Plot   template.HTML
		Words  string
		Tasks  [][]string
		Groups [][]string
	}
	var secs []section
	boot := rep.BootstrapIters > 0
	for _, c := range rep.Comparisons {
		svg, err := ForestPlot(c, rep.Alpha)
		if err != nil {
			return fmt.Errorf("compare: forest plot: %w", err)
		}
		var words bytes.Buffer
		writeWords(&words, rep, c)
		s := section{C: c, Plot: template.HTML(svg), Words: words.String()}
		for _, r := range c.Tasks {
			s.Tasks = append(s.Tasks, tableRow(r, boot))
		}
		for _, r := range c.Groups {
			s.Groups = append(s.Groups, tableRow(r, boot))
		}
		secs = append(secs, s)
	}
	head := append([]string(nil), tableHead...)
	if boot {
		head[6] = fmt.Sprintf("%g%% CI (bootstrap)", 100*(1-rep.Alpha))
	} else {
		head[6] = fmt.Sprintf("%g%% CI (t)", 100*(1-rep.Alpha))
	}
	return htmlPage.Execute(w, map[string]any{"R": rep, "Sections": secs, "Head": head})
}

var htmlPage = template.Must(template.New("compare").Funcs(template.FuncMap{
	"verdictClass": func(v string) string {
		switch v {
		case "B significantly better":
			return "better"
		case "B significantly worse":
			return "worse"
		case "B significantly higher", "B significantly lower":
			return "sig"
		}
		return ""
	},
	"last": func(row []string) string { return row[len(row)-1] },
	"init": func(row []string) []string { return row[:len(row)-1] },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lmeval compare</title>
<style>
body { font-family: Arial, Helvetica, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 1em 0; }
th, td { border: 1px solid #ddd; padding: 0.3em 0.5em; text-align: right; white-space: nowrap; }
th { background: #f3f4f6; } td:last-child { white-space: normal; min-width: 12em; }
.scroll { overflow-x: auto; } td:first-child, td:nth-child(2), td:last-child, th:first-child { text-align: left; }
td.better { color: #1a7f37; font-weight: bold; } td.worse { color: #c62828; font-weight: bold; } td.sig { font-weight: bold; }
pre { background: #f6f8fa; padding: 0.8em; white-space: pre-wrap; font-size: 0.9em; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; } dt { font-weight: bold; }
.plot svg { max-width: 100%; height: auto; }
</style>
</head>
<body>
<h1>lmeval compare</h1>
<dl>
{{range $i, $r := .R.Runs}}<dt>{{if eq $i 0}}A{{else}}B{{if gt (len $.R.Runs) 2}}{{$i}}{{end}}{{end}}</dt><dd>{{$r.Label}} <small>({{$r.Path}})</small></dd>
{{end}}<dt>level</dt><dd>α = {{.R.Alpha}}; p-values Holm-corrected across tasks (and across groups)</dd>
<dt>bootstrap</dt><dd>{{if .R.BootstrapIters}}{{.R.BootstrapIters}} paired replicates, seed {{.R.Seed}}{{else}}off (t intervals){{end}}</dd>
<dt>MDE</dt><dd>minimum detectable effect at power {{.R.Power}}</dd>
{{if .R.Cluster}}<dt>clusters</dt><dd>documents clustered by the field {{.R.Cluster}}</dd>{{end}}
</dl>
{{range .Sections}}
<h2>B = {{.C.B}} against A = {{.C.A}}</h2>
<div class="plot">{{.Plot}}</div>
<pre>{{.Words}}</pre>
<h3>Tasks</h3>
<div class="scroll"><table>
<tr>{{range $.Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Tasks}}<tr>{{range init .}}<td>{{.}}</td>{{end}}<td class="{{verdictClass (last .)}}">{{last .}}</td></tr>
{{end}}</table></div>
{{if .Groups}}<h3>Groups</h3>
<div class="scroll"><table>
<tr>{{range $.Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Groups}}<tr>{{range init .}}<td>{{.}}</td>{{end}}<td class="{{verdictClass (last .)}}">{{last .}}</td></tr>
{{end}}</table></div>{{end}}
{{end}}
<p><small>Written by lmeval compare. Δ is B − A per document, averaged; CI the paired bootstrap's percentile interval (else the paired t interval); SE the analytic paired standard error; SE clustered the cluster-robust one; test McNemar's exact test (discordant pairs A-only/B-only) for 0/1 scores, else the paired t-test (groups averaging their tasks unequally: a stratified z-test). See docs/compare.md.</small></p>
</body>
</html>
`))
