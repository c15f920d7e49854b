package punkt

import (
	"reflect"
	"testing"
)

// Expected values from NLTK 3.8's PunktSentenceTokenizer with the English
// parameters loaded as ../testdata/refsetup.py does, and nltk.word_tokenize.
// The 6,500 texts of ../testdata/vectors.json.gz are checked by the ifeval
// package's tests.
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
	} {
		if got := z.Tokenize(c.text); !reflect.DeepEqual(got, c.sentences) {
			t.Errorf("Tokenize(%q) = %q, NLTK %q", c.text, got, c.sentences)
		}
		if got := z.WordTokenize(c.text); !reflect.DeepEqual(got, c.words) {
			t.Errorf("WordTokenize(%q) = %q, NLTK %q", c.text, got, c.words)
		}
	}
}
