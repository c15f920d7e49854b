package punkt

import (
	"strings"

	"github.com/lmeval/lmeval/python/pyre"
)

type subst struct {
	re   *pyre.Regexp
	repl string
}

func rules(pairs ...string) []subst {
	out := make([]subst, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, subst{pyre.MustCompile(pairs[i]), pairs[i+1]})
	}
	return out
}

// NLTKWordTokenizer's substitutions (nltk/tokenize/destructive.py), in
// order; convert_parentheses is off, as in word_tokenize.
var (
	startingQuotes = rules(
		"([«“‘„]|[`]+)", ` \1 `,
		`^\"`, "``",
		"(``)", ` \1 `,
		`([ \(\[{<])(\"|\'{2})`, `\1 `+"``"+` `,
		`(?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b`, `\1 \2`,
	)
	punctuation = rules(
		`([^\.])(\.)([\]\)}>"\'`+"»”’ "+`]*)\s*$`, `\1 \2 \3 `,
		`([:,])([^\d])`, ` \1 \2`,
		`([:,])$`, ` \1 `,
		`\.{2,}`, ` \g<0> `,
		`[;@#$%&]`, ` \g<0> `,
		`([^\.])(\.)([\]\)}>"\']*)\s*$`, `\1 \2\3 `,
		`[?!]`, ` \g<0> `,
		`([^'])' `, `\1 ' `,
		`[*]`, ` \g<0> `,
	)
	parensBrackets = rules(`[\]\[\(\)\{\}\<\>]`, ` \g<0> `)
	doubleDashes   = rules(`--`, ` -- `)
	endingQuotes   = rules(
		"([»”’])", ` \1 `,
		`''`, ` '' `,
		`"`, ` '' `,
		`([^' ])('[sS]|'[mM]|'[dD]|') `, `\1 \2 `,
		`([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) `, `\1 \2 `,
	)
	contractions = rules(
		`(?i)\b(can)(?#X)(not)\b`, ` \1 \2 `,
		`(?i)\b(d)(?#X)('ye)\b`, ` \1 \2 `,
		`(?i)\b(gim)(?#X)(me)\b`, ` \1 \2 `,
		`(?i)\b(gon)(?#X)(na)\b`, ` \1 \2 `,
		`(?i)\b(got)(?#X)(ta)\b`, ` \1 \2 `,
		`(?i)\b(lem)(?#X)(me)\b`, ` \1 \2 `,
		`(?i)\b(more)(?#X)('n)\b`, ` \1 \2 `,
		`(?i)\b(wan)(?#X)(na)(?=\s)`, ` \1 \2 `,
		`(?i) ('t)(?#X)(is)\b`, ` \1 \2 `,
		`(?i) ('t)(?#X)(was)\b`, ` \1 \2 `,
	)
)

func apply(text string, rs []subst) string {
	for _, r := range rs {
		out, err := r.re.Sub(r.repl, text, 0)
		if err != nil {
			panic(err) // the templates above are valid
		}
		text = out
	}
	return text
}

// TreebankTokenize is NLTKWordTokenizer().tokenize(text).
func TreebankTokenize(text string) []string {
	text = apply(text, startingQuotes)
	text = apply(text, punctuation)
	text = apply(text, parensBrackets)
	text = apply(text, doubleDashes)
	text = " " + text + " "
	text = apply(text, endingQuotes)
	text = apply(text, contractions)
	return strings.FieldsFunc(text, pyre.IsSpace)
}

// WordTokenize is nltk.word_tokenize(text) (English, preserve_line=False):
// the punkt sentences of text, each split by NLTKWordTokenizer.
func (z *Tokenizer) WordTokenize(text string) []string {
	var out []string
	for _, s := range z.Tokenize(text) {
		out = append(out, TreebankTokenize(s)...)
	}
	return out
}
