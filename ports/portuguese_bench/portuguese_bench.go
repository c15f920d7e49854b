// Package portuguese_bench ports lm_eval/tasks/portuguese_bench's
// assin2_utils.py: the STS score read from the answer (a number from 1 to
// 5, 3 when none), Pearson's r between answers and golds (scipy's
// pearsonr), and the RTE macro F1 (sklearn's, lmeval/ports/f1score).
package portuguese_bench

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/ports/f1score"
	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/ports/internal/pyfn"
	"github.com/lmeval/lmeval/python/pyre"
	"github.com/lmeval/lmeval/python/pyval"
)

var scoreRE = pyre.MustCompile(`\b([1-5](?:[.,]\d+)?)\b`)

// pyFloat is float(s) for a decimal string of any script's digits.
func pyFloat(s string) (float64, error) {
	var b strings.Builder
	for _, r := range s {
		if unicode.Is(unicode.Nd, r) && r > '9' {
			n, _ := pyval.Int(string(r))
			b.WriteByte(byte('0' + n))
		} else {
			b.WriteRune(r)
		}
	}
	return strconv.ParseFloat(b.String(), 64)
}

// ParseScore is parse_score: the first 1-5 number (decimals after . or ,),
// clamped to [1, 5]; ok false when there is none.
func ParseScore(text string) (float64, bool) {
	m := scoreRE.Search(text)
	if m == nil {
		return 0, false
	}
	f, err := pyFloat(strings.ReplaceAll(m.Group(1), ",", "."))
	if err != nil {
		return 0, false
	}
	return math.Max(1.0, math.Min(5.0, f)), true
}

// ProcessResultsSTS is process_results_sts: {"pearsonr": (pred, gold)}.
func ProcessResultsSTS(doc task.Doc, results []any) (map[string]any, error) {
	r, err := pyfn.Result(results)
	if err != nil {
		return nil, err
	}
	pred, ok := ParseScore(pyre.Strip(r))
	if !ok {
		pred = 3.0
	}
	gv, err := pydoc.Field(doc, "relatedness_score")
	if err != nil {
		return nil, err
	}
	var gold float64
	switch x := gv.(type) {
	case string:
		if gold, err = pyFloat(pyre.Strip(x)); err != nil {
			return nil, fmt.Errorf("ValueError: could not convert string to float: %q", x)
		}
	default:
		if gold, err = metrics.Float(gv); err != nil {
			return nil, err
		}
	}
	return map[string]any{"pearsonr": []any{pred, gold}}, nil
}

// norm is scipy.linalg.norm of a vector (LAPACK's scaled sum of squares,
// which lmeval reproduces to rounding, not bit for bit).
func norm(x []float64) float64 {
	scale, ssq := 0.0, 1.0
	for _, v := range x {
		if v != 0 {
			a := math.Abs(v)
			if scale < a {
				ssq = 1 + ssq*(scale/a)*(scale/a)
				scale = a
			} else {
				ssq += (a / scale) * (a / scale)
			}
		}
	}
	return scale * math.Sqrt(ssq)
}

// Pearson is scipy.stats.pearsonr(x, y).statistic: NaN for a constant
// input, the product of the signs for two points.
func Pearson(x, y []float64) (float64, error) {
	n := len(x)
	if n != len(y) {
		return 0, fmt.Errorf("ValueError: x and y must have the same length.")
	}
	if n < 2 {
		return 0, fmt.Errorf("ValueError: x and y must have length at least 2.")
	}
	constant := func(v []float64) bool {
		for _, e := range v {
			if e != v[0] {
				return false
			}
		}
		return true
	}
	if constant(x) || constant(y) {
		return math.NaN(), nil
	}
	sign := func(v float64) float64 {
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	if n == 2 {
		return sign(x[1]-x[0]) * sign(y[1]-y[0]), nil
	}
	xm, ym := make([]float64, n), make([]float64, n)
	mx, my := metrics.NumpySum(x)/float64(n), metrics.NumpySum(y)/float64(n)
	for i := range x {
		xm[i], ym[i] = x[i]-mx, y[i]-my
	}
	nx, ny := norm(xm), norm(ym)
	r := 0.0
	for i := range xm {
		r += (xm[i] / nx) * (ym[i] / ny)
	}
	return math.Max(math.Min(r, 1.0), -1.0), nil
}

// PearsonCorr is pearson_corr(items): 0 when the answers take fewer than
// two values.
var PearsonCorr = &metrics.Aggregation{Name: "assin2_pearson_corr", Fn: func(items []any) (float64, error) {
	var preds, golds []float64
	distinct := map[float64]bool{}
	for i, it := range items {
		l, ok := it.([]any)
		if !ok || len(l) != 2 {
			return 0, fmt.Errorf("pearson_corr: value %d is %T, want (pred, gold)", i, it)
		}
		p, err1 := metrics.Float(l[0])
		g, err2 := metrics.Float(l[1])
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("pearson_corr: value %d is not two numbers", i)
		}
		preds, golds = append(preds, p), append(golds, g)
		distinct[p] = true
	}
	if len(distinct) < 2 {
		return 0, nil
	}
	return Pearson(preds, golds)
}}

func init() {
	metrics.RegisterAggregation(PearsonCorr)

	task.RegisterProcessResults(task.Helper{File: "portuguese_bench/assin2_utils.py", Function: "process_results_sts", SHA256: "eb95dfe3220d10acccfd6faa53a224dc301d5a42922d679b2dd1f622d5008fc7"}, ProcessResultsSTS)
	task.RegisterAggregation(task.Helper{File: "portuguese_bench/assin2_utils.py", Function: "pearson_corr", SHA256: "85cfdb98a2c2a3a92342d72d1705da094118f7548c171395021092da4b38b73e"}, PearsonCorr)
	// golds, preds = zip(*items): sklearn's macro F1 of (gold, pred) pairs.
	task.RegisterAggregation(task.Helper{File: "portuguese_bench/assin2_utils.py", Function: "macro_f1", SHA256: "686f528f472b1661de94dfdfd0870e950de4a5bdf3f1454fe2291ab3ed034e08"}, f1score.Macro)
}
