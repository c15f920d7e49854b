// Package npmath reproduces the numpy reductions lm-eval's helpers use
// where the order of floating-point operations shows in the result:
// np.sum and np.mean of float64 arrays (pairwise summation).
package npmath

import (
	"math"

	"github.com/lmeval/lmeval/harness/metrics"
)

// Sum is np.sum of a 1-d float64 array (metrics.NumpySum: numpy's
// pairwise summation).
func Sum(a []float64) float64 { return metrics.NumpySum(a) }

// Mean is np.mean: NaN for an empty array (numpy warns).
func Mean(a []float64) float64 {
	if len(a) == 0 {
		return math.NaN()
	}
	return Sum(a) / float64(len(a))
}

// Bool is numpy's bool_, what comparisons of numpy values give. lm-eval
// logs it with str() (json.dumps' default: handle_non_serializable), so a
// sample shows "True" or "False", a text; it aggregates as 1 or 0.
type Bool bool

// String is str(np.bool_): "True" or "False".
func (b Bool) String() string {
	if b {
		return "True"
	}
	return "False"
}

// MarshalJSON writes the sample's value, the text str() gives.
func (b Bool) MarshalJSON() ([]byte, error) { return []byte(`"` + b.String() + `"`), nil }

// SampleValue is what a samples file records (task.SampleValuer).
func (b Bool) SampleValue() any { return b.String() }
