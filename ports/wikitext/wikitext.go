package wikitext

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lmeval/lmeval/ports/internal/pydoc"
	"github.com/lmeval/lmeval/python/pyre"
)

// pySpace is the re module's \s on str patterns (Go's \s is ASCII only and
// leaves out \v).
const pySpace = `[\t\n\v\f\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`

var (
	// lm-eval's pattern r"/' [0-9]/" with the replacement r"/'[0-9]/" taken
	// literally: an upstream quirk, kept so the text matches.
	wtSlashQuote = regexp.MustCompile(`/' [0-9]/`)
	wtBrackets   = []struct {
		re   *regexp.Regexp
		repl string
	}{
		{regexp.MustCompile(`\(` + pySpace + `*([^)]*?)` + pySpace + `*\)`), "(${1})"},
		{regexp.MustCompile(`\[` + pySpace + `*([^\]]*?)` + pySpace + `*\]`), "[${1}]"},
		{regexp.MustCompile(`\{` + pySpace + `*([^}]*?)` + pySpace + `*\}`), "{${1}}"},
		{regexp.MustCompile(`"` + pySpace + `*([^"]*?)` + pySpace + `*"`), `"${1}"`},
		{regexp.MustCompile(`'` + pySpace + `*([^']*?)` + pySpace + `*'`), "'${1}'"},
	}
)

// Detokenize undoes WikiText's tokenisation of one page as lm-eval's
// wikitext/preprocess_wikitext.py wikitext_detokenizer does: " @-@ " -> "-",
// " @,@ " -> ",", " @.@ " -> ".", spaces before punctuation, spaces inside
// brackets and quotes, "= = =" headings -> "===", and so on. The steps run
// in lm-eval's order, each over the whole text, since later steps see the
// output of earlier ones.
func Detokenize(s string) string {
	// contractions
	s = strings.ReplaceAll(s, "s '", "s'")
	s = wtSlashQuote.ReplaceAllLiteralString(s, "/'[0-9]/")
	// number separators
	s = strings.ReplaceAll(s, " @-@ ", "-")
	s = strings.ReplaceAll(s, " @,@ ", ",")
	s = strings.ReplaceAll(s, " @.@ ", ".")
	// punctuation
	s = strings.ReplaceAll(s, " : ", ": ")
	s = strings.ReplaceAll(s, " ; ", "; ")
	s = strings.ReplaceAll(s, " . ", ". ")
	s = strings.ReplaceAll(s, " ! ", "! ")
	s = strings.ReplaceAll(s, " ? ", "? ")
	s = strings.ReplaceAll(s, " , ", ", ")
	// double brackets
	for _, b := range wtBrackets {
		s = b.re.ReplaceAllString(s, b.repl)
	}
	// miscellaneous
	s = strings.ReplaceAll(s, "= = = =", "====")
	s = strings.ReplaceAll(s, "= = =", "===")
	s = strings.ReplaceAll(s, "= =", "==")
	s = strings.ReplaceAll(s, " \u00b0 ", "\u00b0")
	s = strings.ReplaceAll(s, " \n", "\n")
	s = strings.ReplaceAll(s, "\n ", "\n")
	s = strings.ReplaceAll(s, " N ", " 1 ")
	s = strings.ReplaceAll(s, " 's", "'s")
	return s
}

// DocToTarget is preprocess_wikitext.wikitext_detokenizer as a
// doc_to_target: the detokenised "page" field.
func DocToTarget(doc map[string]any) (string, error) {
	page, err := pydoc.GetStr(doc, "page")
	if err != nil {
		return "", fmt.Errorf("wikitext_detokenizer: %w", err)
	}
	return Detokenize(page), nil
}

// Counts returns the word and byte counts lm-eval's
// preprocess_wikitext.process_results pairs with the log-likelihood: both
// taken from the page before detokenisation. Words are the pieces of
// re.split(r"\s+", page), so leading or trailing whitespace adds an empty
// piece, as in Python.
func Counts(page string) (words, bytes int) {
	words = 1
	inSpace := false
	for _, r := range page {
		sp := pyre.IsSpace(r)
		if sp && !inSpace {
			words++
		}
		inSpace = sp
	}
	return words, len(page)
}
