package pynum

import (
	"math"
	"math/big"
	"strconv"
)

// Int64 is Int for values that fit an int64 (ok is false otherwise too).
func Int64(s string) (int64, bool) {
	n, ok := Int(s)
	if !ok || !n.IsInt64() {
		return 0, false
	}
	return n.Int64(), true
}

// IntString is str(int(f)) for a finite float whose value is an integer
// (float.is_integer()): its exact decimal digits.
func IntString(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	i, _ := new(big.Float).SetFloat64(f).Int(nil)
	return i.String()
}

// IsInteger is float.is_integer().
func IsInteger(f float64) bool {
	return !math.IsInf(f, 0) && !math.IsNaN(f) && f == math.Trunc(f)
}
