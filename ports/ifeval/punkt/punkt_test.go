package punkt

import (
	"reflect"
	"testing"
)

// Expected values from NLTK 3.10.4's PunktTokenizer("english") with the
// English parameters written by scripts/parity/punkt.py, and
// nltk.word_tokenize. The 6,500 texts of ../testdata/vectors-*.json.gz are
// checked by the ifeval package's tests.
func TestEnglish(t *testing.T) {
	z, err := English()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text      string
		sentences []string
		words     []string
	}{
		{"Hello Mr. Smith. How are you? I am fine.",
			[]string{"Hello Mr. Smith.", "How are you?", "I am fine."},
			[]string{"Hello", "Mr.", "Smith", ".", "How", "are", "you", "?", "I", "am", "fine", "."}},
		{"He left at 5 p.m. and J. S. Bach played.  (See Fig. 3.) Then it ended...",
			[]string{"He left at 5 p.m. and J. S. Bach played.", "(See Fig.", "3.)", "Then it ended..."},
			[]string{"He", "left", "at", "5", "p.m.", "and", "J.", "S.", "Bach", "played", ".", "(", "See", "Fig", ".", "3", ".", ")", "Then", "it", "ended", "..."}},
		{"The U.S. economy grew 3.5%. Analysts said so!\"  Yes.",
			[]string{"The U.S. economy grew 3.5%.", "Analysts said so!\"", "Yes."},
			[]string{"The", "U.S.", "economy", "grew", "3.5", "%", ".", "Analysts", "said", "so", "!", "''", "Yes", "."}},
		{"", []string{}, nil},
		// nltk 3.10.1's apostrophe rule, 3.10.2's curly quotes
		{"She said “Stop.” Then 'Tis over; 'twas 'The end'.",
			[]string{"She said “Stop.”", "Then 'Tis over; 'twas 'The end'."},
			[]string{"She", "said", "“", "Stop", ".", "”", "Then", "'", "Tis", "over", ";", "'", "twas", "'", "The", "end", "'", "."}},
		// the regex module's \w (marks inside words) and \s (not U+001C),
		// 3.9.3's dashes
		{"नमस्ते। करें जहां? Done. 결전을 .”라고 말하였다 .",
			[]string{"नमस्ते। करें जहां?", "Done.", "결전을 .", "”라고 말하였다 ."},
			[]string{"नमस्ते।", "करें", "जहां", "?", "Done", ".", "결전을", ".", "”", "라고", "말하였다", "."}},
		{"a\x1cb. C d – e—f\u2012g.",
			[]string{"a\x1cb.", "C d – e—f\u2012g."},
			[]string{"a", "b", ".", "C", "d", "–", "e", "—", "f", "\u2012", "g", "."}},
	} {
		if got := z.Tokenize(c.text); !reflect.DeepEqual(got, c.sentences) {
			t.Errorf("Tokenize(%q) = %q, NLTK %q", c.text, got, c.sentences)
		}
		if got := z.WordTokenize(c.text); !reflect.DeepEqual(got, c.words) {
			t.Errorf("WordTokenize(%q) = %q, NLTK %q", c.text, got, c.words)
		}
	}
}
