package punkt

import (
	"strings"

	"github.com/lmeval/lmeval/python/pyre"
)

type subst struct {
	re   *pyre.Regexp
	repl string
}

// rules compiles (pattern, replacement) pairs written for d.
func rules(d pyre.Dialect, pairs ...string) []subst {
	out := make([]subst, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, subst{d.MustCompile(pairs[i]), pairs[i+1]})
	}
	return out
}

// NLTKWordTokenizer's substitutions (nltk 3.10.4's
// nltk/tokenize/destructive.py), in order; convert_parentheses is off, as
// in word_tokenize. All but the contractions go through nltk/redos.py, so
// the regex module compiles them.
var (
	startingQuotes = rules(pyre.RegexModule,
		"([«“‘„]|[`]+)", ` \1 `,
		`^\"`, "``",
		"(``)", ` \1 `,
		`([ \(\[{<])(\"|\'{2})`, `\1 `+"``"+` `,
		`(?i)(?<!\w)(\')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)`, `\1 `,
	)
	punctuation = rules(pyre.RegexModule,
		`([^\.])(\.)([\]\)}>"\'`+"»”’ "+`]*+)\s*$`, `\1 \2 \3 `,
		`([:,])([^\d])`, ` \1 \2`,
		`([:,])$`, ` \1 `,
		`\.{2,}`, ` \g<0> `,
		`[;@#$%&]`, ` \g<0> `,
		`[\u2012-\u2015]`, ` \g<0> `,
		`([^\.])(\.)([\]\)}>"\']*)\s*$`, `\1 \2\3 `,
		`[?!]`, ` \g<0> `,
		`([^'])' `, `\1 ' `,
		`[*]`, ` \g<0> `,
	)
	parensBrackets = rules(pyre.RegexModule, `[\]\[\(\)\{\}\<\>]`, ` \g<0> `)
	doubleDashes   = rules(pyre.RegexModule, `--`, ` -- `)
	endingQuotes   = rules(pyre.RegexModule,
		"([»”’])", ` \1 `,
		`''`, ` '' `,
		`"`, ` '' `,
		`\s+`, " ",
		`([^' ])('[sS]|'[mM]|'[dD]|') `, `\1 \2 `,
		`([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) `, `\1 \2 `,
	)
	// CONTRACTIONS2 and CONTRACTIONS3 stay on re.compile in nltk 3.10.4.
	contractions = rules(pyre.Re,
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
