package sweep

import (
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/lmeval/lmeval/internal/chart"
)

// WriteChart draws the report as an SVG (gonum.org/v1/plot): perplexity
// (with ± error bars) and mean KLD against bits per weight, one labelled
// point per model, the base in red. The KLD panel uses a log scale when
// the values span more than two decades.
func WriteChart(w io.Writer, r *Report) error {
	var ppl, kld []chartPoint
	for _, m := range r.Models {
		if m.Error != "" || m.PPL == nil {
			continue
		}
		ppl = append(ppl, chartPoint{m.BitsPerWeight, m.PPL.PPL, m.PPL.PPLUnc, m.Name, m.IsBase})
		if m.KLD != nil {
			kld = append(kld, chartPoint{m.BitsPerWeight, m.KLD.KLD, m.KLD.KLDUnc, m.Name, false})
		}
	}
	left := chartPanel("Perplexity (llama.cpp chunks)", "perplexity", ppl)
	right := chartPanel("Mean KL divergence from the base", "mean KLD (nats)", kld)
	svg, err := chart.SVG(vg.Points(480), vg.Points(400), left, right)
	if err != nil {
		return err
	}
	_, err = w.Write(svg)
	return err
}

type chartPoint struct {
	x, y, unc float64
	label     string
	base      bool
}

var (
	chartBlue = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	chartRed  = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
)

// chartPanel plots points (value ± uncertainty against bits per weight)
// with their labels; labels of points that land close together (F16 and
// BF16 share a bits-per-weight value) are stacked so each stays readable.
func chartPanel(title, ylabel string, pts []chartPoint) *plot.Plot {
	p := chart.New()
	p.Title.Text = title
	p.X.Label.Text = "bits per weight"
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	if len(pts) == 0 {
		p.Title.Text += " (no data)"
		return p
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		xmin, xmax = math.Min(xmin, q.x), math.Max(xmax, q.x)
		ymin, ymax = math.Min(ymin, q.y-q.unc), math.Max(ymax, q.y+q.unc)
	}
	logY := ymin > 0 && ymax/ymin > 100
	fy := func(v float64) float64 { return v }
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		fy = math.Log10
	}
	// Room for the labels right of the points, and around them.
	dx := math.Max(xmax-xmin, 1)
	p.X.Min, p.X.Max = xmin-0.08*dx, xmax+0.25*dx
	if logY {
		f := math.Pow(ymax/ymin, 0.08)
		p.Y.Min, p.Y.Max = ymin/f, ymax*f
	} else {
		dy := math.Max(ymax-ymin, 1e-9*math.Max(1, math.Abs(ymax)))
		p.Y.Min, p.Y.Max = ymin-0.08*dy, ymax+0.08*dy
	}
	var placed [][2]float64
	yspan := math.Max(fy(ymax)-fy(ymin), 1e-12)
	for _, q := range pts {
		col := chartBlue
		if q.base {
			col = chartRed
		}
		xy := plotter.XYs{{X: q.x, Y: q.y}}
		if q.unc > 0 && (!logY || q.y-q.unc > 0) {
			bars := &plotter.YErrorBars{XYs: xy, YErrors: plotter.YErrors{{Low: q.unc, High: q.unc}}, CapWidth: vg.Points(5)}
			bars.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1)}
			p.Add(bars)
		}
		if sc, err := plotter.NewScatter(xy); err == nil {
			sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
			p.Add(sc)
		}
		// Stack a label below the ones already near it.
		k := 0
		for _, o := range placed {
			if math.Abs(o[0]-q.x) < 0.05*dx && math.Abs(o[1]-fy(q.y)) < 0.04*yspan {
				k++
			}
		}
		placed = append(placed, [2]float64{q.x, fy(q.y)})
		if l, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: []string{q.label}}); err == nil {
			l.TextStyle[0].Font = chart.Font(vg.Points(9))
			l.Offset = vg.Point{X: vg.Points(6), Y: vg.Points(3 - 12*float64(k))}
			p.Add(l)
		}
	}
	return p
}
