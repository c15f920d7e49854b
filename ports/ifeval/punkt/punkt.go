// Package punkt is a port of NLTK 3.10.4's Punkt sentence tokenizer
// (nltk/tokenize/punkt.py, PunktSentenceTokenizer.tokenize with
// realign_boundaries=True) and of nltk.word_tokenize (punkt sentences, then
// NLTKWordTokenizer, nltk/tokenize/destructive.py), with NLTK's English
// model, as lm-eval's ifeval uses them with the nltk pip installs today (it
// asks for >= 3.9.1). Each pattern is compiled as that nltk compiles it:
// with the third-party regex module (pyre.RegexModule) where it goes through
// nltk/redos.py, with the standard re elsewhere (NLTKWordTokenizer's
// contractions), so \w keeps combining marks inside words and \s is
// White_Space.
//
// The English parameters (abbreviation types, collocations, sentence
// starters, orthographic contexts) are the ones github.com/neurosnap/sentences
// embeds from NLTK's english.pickle; they are read from that module, not
// copied here. The tokenizing algorithm is NLTK's, not that module's.
package punkt

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/neurosnap/sentences/data"

	"github.com/lmeval/lmeval/python/pyre"
)

// Orthographic context flags of punkt.py.
const (
	orthoBegUC = 1 << 1
	orthoMidUC = 1 << 2
	orthoUnkUC = 1 << 3
	orthoBegLC = 1 << 4
	orthoMidLC = 1 << 5
	orthoUnkLC = 1 << 6
	orthoUC    = orthoBegUC + orthoMidUC + orthoUnkUC
	orthoLC    = orthoBegLC + orthoMidLC + orthoUnkLC
)

// Params is PunktParameters.
type Params struct {
	AbbrevTypes  map[string]bool
	Collocations map[[2]string]bool
	SentStarters map[string]bool
	OrthoContext map[string]int
}

// Tokenizer is a PunktSentenceTokenizer with PunktLanguageVars' defaults.
type Tokenizer struct {
	p *Params
}

// PunktLanguageVars' patterns, which nltk 3.10.4 compiles with the regex
// module (nltk/redos.py). The sentence-end characters other than "." are
// "?" and "!"; the curly quotes and guillemets are nltk 3.10.2's.
const (
	reNonWordChars   = `(?:[)\";}\]\*:@\'\({\[\u2018\u2019\u201c\u201d\xab\xbb\?!])`
	reMultiCharPunct = `(?:\-{2,}|\.{2,}|(?:\.\s){2,}\.)`
	reWordStart      = `[^\(\"\` + "`" + `{\[:;&\#\*@\)}\]\-,]`
)

var (
	// PunktLanguageVars._word_tokenizer_re()
	reWordTokenizer = pyre.RegexModule.MustCompile(`(?x)(
        ` + reMultiCharPunct + `
        |
        (?=` + reWordStart + `)\S+?  # Accept word characters until end is found
        (?= # Sequences marking a word's end
            \s|                                 # White-space
            $|                                  # End-of-string
            ` + reNonWordChars + `|` + reMultiCharPunct + `|          # Punctuation
            ,(?=$|\s|` + reNonWordChars + `|` + reMultiCharPunct + `) # Comma if at end of word
        )
        |
        \S
    )`)
	// PunktLanguageVars.period_context_re()
	rePeriodContext = pyre.RegexModule.MustCompile(`(?x)
        [\.\?!]             # a potential sentence ending
        (?=(?P<after_tok>
            ` + reNonWordChars + `              # either other punctuation
            |
            \s+(?P<next_tok>\S+)     # or whitespace and some other token
        ))`)
	// PunktLanguageVars.re_boundary_realignment
	reBoundaryRealignment = pyre.RegexModule.MustCompile(`(?m)["\')\]}\u2018\u2019\u201c\u201d\xab\xbb]+?(?:\s+|(?=--)|$)`)

	// PunktToken._RE_ELLIPSIS, _RE_NUMERIC, _RE_INITIAL
	reEllipsis = pyre.RegexModule.MustCompile(`\.\.+$`)
	reNumeric  = pyre.RegexModule.MustCompile(`^-?[\.,]?\d[\d,\.-]*\.?$`)
	reInitial  = pyre.RegexModule.MustCompile(`[^\W\d]\.$`)
)

var nextTokGroup = rePeriodContext.GroupIndex()["next_tok"]

var (
	englishOnce sync.Once
	english     *Tokenizer
	englishErr  error
)

// English returns the tokenizer with NLTK's English parameters.
func English() (*Tokenizer, error) {
	englishOnce.Do(func() {
		raw, err := data.Asset("data/english.json")
		if err != nil {
			englishErr = fmt.Errorf("punkt: English parameters: %w", err)
			return
		}
		p, err := ParseParams(raw)
		if err != nil {
			englishErr = err
			return
		}
		english = &Tokenizer{p: p}
	})
	return english, englishErr
}

// ParseParams reads parameters in github.com/neurosnap/sentences' JSON
// layout (AbbrevTypes, Collocations as "a,b", SentStarters, OrthoContext).
func ParseParams(raw []byte) (*Params, error) {
	var d struct {
		AbbrevTypes  map[string]int
		Collocations map[string]int
		SentStarters map[string]int
		OrthoContext map[string]int
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("punkt: parameters: %w", err)
	}
	p := &Params{
		AbbrevTypes:  map[string]bool{},
		Collocations: map[[2]string]bool{},
		SentStarters: map[string]bool{},
		OrthoContext: d.OrthoContext,
	}
	for k := range d.AbbrevTypes {
		p.AbbrevTypes[k] = true
	}
	for k := range d.SentStarters {
		p.SentStarters[k] = true
	}
	for k := range d.Collocations {
		a, b, ok := strings.Cut(k, ",")
		if !ok {
			return nil, fmt.Errorf("punkt: parameters: collocation %q has no comma", k)
		}
		p.Collocations[[2]string{a, b}] = true
	}
	return p, nil
}

// token is PunktToken.
type token struct {
	tok                         string
	typ                         string
	periodFinal                 bool
	parastart, linestart        bool
	sentbreak, abbr, ellipsis   bool
	isInitial, isEllipsisRegexp bool
}

func newToken(tok string) *token {
	t := &token{tok: tok, periodFinal: strings.HasSuffix(tok, ".")}
	typ, err := reNumeric.Sub("##number##", pyre.Lower(tok), 0)
	if err != nil {
		panic(err) // literal replacement
	}
	t.typ = typ
	t.isInitial = reInitial.Match(tok) != nil
	t.isEllipsisRegexp = reEllipsis.Match(tok) != nil
	return t
}

func (t *token) typeNoPeriod() string {
	if utf8.RuneCountInString(t.typ) > 1 && strings.HasSuffix(t.typ, ".") {
		return t.typ[:len(t.typ)-1]
	}
	return t.typ
}

func (t *token) typeNoSentPeriod() string {
	if t.sentbreak {
		return t.typeNoPeriod()
	}
	return t.typ
}

func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }

func (t *token) firstUpper() bool { return pyre.IsUpperRune(firstRune(t.tok)) }
func (t *token) firstLower() bool { return pyre.IsLowerRune(firstRune(t.tok)) }

// tokenizeWords is PunktBaseClass._tokenize_words.
func tokenizeWords(text string) []*token {
	var out []*token
	parastart := false
	for _, line := range strings.Split(text, "\n") {
		if pyre.Strip(line) == "" {
			parastart = true
			continue
		}
		ms := reWordTokenizer.FindAll(line)
		if len(ms) == 0 {
			continue
		}
		for i, m := range ms {
			t := newToken(m.Group(1))
			if i == 0 {
				t.parastart, t.linestart = parastart, true
				parastart = false
			}
			out = append(out, t)
		}
	}
	return out
}

// annotate runs the first and second passes of _annotate_tokens.
func (z *Tokenizer) annotate(toks []*token) {
	for _, t := range toks {
		z.firstPass(t)
	}
	for i, t := range toks {
		if i+1 < len(toks) {
			z.secondPass(t, toks[i+1])
		}
	}
}

func (z *Tokenizer) firstPass(t *token) {
	tok := t.tok
	switch {
	case tok == "." || tok == "?" || tok == "!":
		t.sentbreak = true
	case t.isEllipsisRegexp:
		t.ellipsis = true
	case t.periodFinal && !strings.HasSuffix(tok, ".."):
		stem := pyre.Lower(tok[:len(tok)-1])
		parts := strings.Split(stem, "-")
		if z.p.AbbrevTypes[stem] || z.p.AbbrevTypes[parts[len(parts)-1]] {
			t.abbr = true
		} else {
			t.sentbreak = true
		}
	}
}

type tri int

const (
	triFalse tri = iota
	triTrue
	triUnknown
)

func (z *Tokenizer) secondPass(t1, t2 *token) {
	if !t1.periodFinal {
		return
	}
	typ := t1.typeNoPeriod()
	nextTyp := t2.typeNoSentPeriod()
	initial := t1.isInitial

	if z.p.Collocations[[2]string{typ, nextTyp}] {
		t1.sentbreak = false
		t1.abbr = true
		return
	}
	if (t1.abbr || t1.ellipsis) && !initial {
		if z.orthoHeuristic(t2) == triTrue {
			t1.sentbreak = true
			return
		}
		if t2.firstUpper() && z.p.SentStarters[nextTyp] {
			t1.sentbreak = true
			return
		}
	}
	if initial || typ == "##number##" {
		h := z.orthoHeuristic(t2)
		if h == triFalse {
			t1.sentbreak = false
			t1.abbr = true
			return
		}
		if h == triUnknown && initial && t2.firstUpper() && z.p.OrthoContext[nextTyp]&orthoLC == 0 {
			t1.sentbreak = false
			t1.abbr = true
		}
	}
}

func (z *Tokenizer) orthoHeuristic(t *token) tri {
	switch t.tok {
	case ";", ":", ",", ".", "!", "?":
		return triFalse
	}
	oc := z.p.OrthoContext[t.typeNoSentPeriod()]
	if t.firstUpper() && oc&orthoLC != 0 && oc&orthoMidUC == 0 {
		return triTrue
	}
	if t.firstLower() && (oc&orthoUC != 0 || oc&orthoBegLC == 0) {
		return triFalse
	}
	return triUnknown
}

// textContainsSentbreak is text_contains_sentbreak: a sentence break before
// the last token.
func (z *Tokenizer) textContainsSentbreak(text string) bool {
	toks := tokenizeWords(text)
	z.annotate(toks)
	for i, t := range toks {
		if t.sentbreak && i+1 < len(toks) {
			return true
		}
	}
	return false
}

type span struct{ start, stop int }

func lastWhitespaceIndex(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\x0b', '\x0c':
			return i
		}
	}
	return 0
}

type endContext struct {
	m       *pyre.Match
	context string
}

// matchPotentialEndContexts is _match_potential_end_contexts.
func matchPotentialEndContexts(text string) []endContext {
	var out []endContext
	prev := span{0, 0}
	var prevMatch *pyre.Match
	afterTok := func(m *pyre.Match) string { return m.Named("after_tok") }
	for _, m := range rePeriodContext.FindAll(text) {
		before := text[prev.stop:m.Start()]
		idx := lastWhitespaceIndex(before)
		if idx != 0 {
			idx += prev.stop + 1
		} else {
			idx = prev.start
		}
		word := span{idx, m.Start()}
		if prevMatch != nil && prev.stop <= word.start {
			out = append(out, endContext{prevMatch, text[prev.start:prev.stop] + prevMatch.Group(0) + afterTok(prevMatch)})
		}
		prevMatch, prev = m, word
	}
	if prevMatch != nil {
		out = append(out, endContext{prevMatch, text[prev.start:prev.stop] + prevMatch.Group(0) + afterTok(prevMatch)})
	}
	return out
}

func (z *Tokenizer) slicesFromText(text string) []span {
	var out []span
	last := 0
	for _, c := range matchPotentialEndContexts(text) {
		if z.textContainsSentbreak(c.context) {
			out = append(out, span{last, c.m.End()})
			if s, _ := c.m.Span(nextTokGroup); s >= 0 && c.m.Named("next_tok") != "" {
				last = s
			} else {
				last = c.m.End()
			}
		}
	}
	return append(out, span{last, len(pyre.RStrip(text))})
}

// realignBoundaries is _realign_boundaries.
func realignBoundaries(text string, slices []span) []span {
	var out []span
	realign := 0
	for i, s1 := range slices {
		s1 = span{s1.start + realign, s1.stop}
		sub := func(s span) string {
			if s.start >= s.stop {
				return ""
			}
			return text[s.start:s.stop]
		}
		if i+1 == len(slices) {
			if sub(s1) != "" {
				out = append(out, s1)
			}
			continue
		}
		s2 := slices[i+1]
		if m := reBoundaryRealignment.Match(sub(s2)); m != nil {
			out = append(out, span{s1.start, s2.start + len(pyre.RStrip(m.Group(0)))})
			realign = m.End()
		} else {
			realign = 0
			if sub(s1) != "" {
				out = append(out, s1)
			}
		}
	}
	return out
}

// Tokenize is PunktSentenceTokenizer.tokenize(text): the sentences of text.
func (z *Tokenizer) Tokenize(text string) []string {
	spans := realignBoundaries(text, z.slicesFromText(text))
	out := make([]string, 0, len(spans))
	for _, s := range spans {
		if s.start >= s.stop {
			out = append(out, "")
			continue
		}
		out = append(out, text[s.start:s.stop])
	}
	return out
}
