package pyval

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestJSONStringRuns: copying runs of characters that need no escape
// writes what escaping character by character does, for ASCII and UTF-8
// text, control characters, quotes, and invalid UTF-8 (U+FFFD).
func TestJSONStringRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "Z", " ", "\"", "\\", "\n", "\t", "\x01", "\x7f", "é", "日本", "😀", "\xff", "\xe2\x82", "ab\"cd", "</x>"}
	for range 2000 {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := sb.String()
		for _, ascii := range []bool{false, true} {
			var fast, slow strings.Builder
			writeJSONString(&fast, s, ascii)
			slow.WriteByte('"')
			for _, c := range s {
				writeJSONRune(&slow, c, ascii)
			}
			slow.WriteByte('"')
			if fast.String() != slow.String() {
				t.Fatalf("%q (ascii %v): %s, want %s", s, ascii, fast.String(), slow.String())
			}
		}
	}
}
