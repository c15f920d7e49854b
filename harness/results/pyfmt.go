package results

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/lmeval/lmeval/python/pyval"
)

// Float is a number written as Python writes a float (1.0, not 1), so
// results files keep lm-eval's number types through a round trip. NaN and
// infinities, which Python writes as bare NaN/Infinity (not JSON), are
// written as null.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return []byte(pyval.FloatRepr(x)), nil
}

// HashString is lm-eval's hash_string: hex SHA-256 of the UTF-8 text.
func HashString(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// pyJSON is lm-eval's json.dumps(v, indent=indent, ensure_ascii=False,
// default=handle_non_serializable) (indent < 0: indent=None). A plain Go
// map has no order, so its keys are written sorted, while an *OrderedMap
// keeps its order, as a dict from a dataset row does.
func pyJSON(v any, indent int) string {
	s, _ := pyval.JSON(v, pyval.JSONOptions{Indent: indent, Default: handleNonSerializable})
	return s
}

// handleNonSerializable is lm-eval's handle_non_serializable: str(o).
func handleNonSerializable(v any) (any, error) { return fmt.Sprint(v), nil }
