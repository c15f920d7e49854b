package engine

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// trace follows one generation's reasoning trace (GenerateRequest's
// Reasoning) token by token, as llama.cpp's reasoning-budget sampler
// does (common/reasoning-budget.cpp): idle until Start, counting until
// End or the budget, then forcing Message and End. The markers are looked
// for in the tokens' texts with special tokens spelled out, so a marker
// that is one special token ("</think>") is found whatever the decoded
// text shows.
type trace struct {
	r      *Reasoning
	forced []int32 // Message + End, tokenized
	state  traceState
	text   strings.Builder // the generated tokens' texts, specials spelled out
	scan   int             // where in text the next marker is looked for
	from   int             // the generated token that opened the trace
	to     int             // the token after the one that closed it (-1: open)
	count  int             // tokens counted against the budget
	hit    bool
}

type traceState int

const (
	traceIdle     traceState = iota // before Start
	traceCounting                   // inside the trace
	traceDone                       // End written or forced
)

func (m *Model) newTrace(r *Reasoning, prompt []int32) (*trace, error) {
	if r.End == "" {
		return nil, errors.New("reasoning: the text that ends a trace is empty")
	}
	t := &trace{r: r, to: -1}
	if r.Budget >= 0 {
		var err error
		if t.forced, err = m.tokenize(r.Message+r.End, false, true); err != nil {
			return nil, err
		}
	}
	// A context that opened a trace and did not close it (the chat
	// template's generation prompt wrote Start) starts inside it.
	if r.Start != "" {
		ptext := m.piecesText(prompt)
		if i := strings.LastIndex(ptext, r.Start); i >= 0 && !strings.Contains(ptext[i:], r.End) {
			t.state = traceCounting
		}
	}
	return t, nil
}

// piecesText is the tokens' texts with special tokens spelled out.
func (m *Model) piecesText(toks []int32) string {
	var b strings.Builder
	for _, tok := range toks {
		b.WriteString(cPiece(m.c, tok, true))
	}
	return b.String()
}

// begin is called before the first token: a budget of 0 in a trace the
// context opened forces the end at once.
func (t *trace) begin(s *genSeq) {
	if t.state == traceCounting && t.r.Budget == 0 {
		t.force(s)
	}
}

// step follows the sequence's newest (not end-of-generation) token.
func (t *trace) step(m *Model, s *genSeq) {
	n := len(s.gen)
	t.text.WriteString(cPiece(m.c, s.gen[n-1], true))
	text := t.text.String()
	switch t.state {
	case traceIdle:
		if t.r.Start == "" {
			return
		}
		if i := strings.Index(text[t.scan:], t.r.Start); i >= 0 {
			t.state, t.from, t.scan = traceCounting, n-1, t.scan+i+len(t.r.Start)
			if t.r.Budget == 0 {
				t.force(s)
			}
			return
		}
		t.scan = max(t.scan, len(text)-len(t.r.Start)+1)
	case traceCounting:
		if i := strings.Index(text[t.scan:], t.r.End); i >= 0 {
			t.state, t.to = traceDone, n
			return
		}
		t.count++
		// A marker split across tokens is still found: look again from
		// where it could have begun.
		t.scan = max(t.scan, len(text)-len(t.r.End)+1)
		if t.r.Budget >= 0 && t.count >= t.r.Budget && utf8Complete(text) {
			t.force(s)
		}
	}
}

// force queues Message and End as the sequence's next tokens (as many as
// its max_gen_toks leaves room for) and closes the trace.
func (t *trace) force(s *genSeq) {
	room := s.maxGen - len(s.gen)
	f := t.forced[:min(len(t.forced), max(room, 0))]
	s.gen = append(s.gen, f...)
	t.state, t.hit, t.to = traceDone, true, len(s.gen)
}

// tokens is the number of the n generated tokens that belong to the
// trace.
func (t *trace) tokens(n int) int {
	if t.state == traceIdle {
		return 0
	}
	to := t.to
	if to < 0 || to > n {
		to = n
	}
	return max(to-t.from, 0)
}

// utf8Complete reports whether text does not end inside a multi-byte
// UTF-8 character (common_utf8_is_complete).
func utf8Complete(text string) bool {
	for i := 1; i <= min(len(text), utf8.UTFMax); i++ {
		c := text[len(text)-i]
		if c < 0x80 {
			return true // ASCII: complete
		}
		if c >= 0xC0 { // a lead byte: is its sequence all there?
			need := 2
			switch {
			case c >= 0xF0:
				need = 4
			case c >= 0xE0:
				need = 3
			}
			return i >= need
		}
	}
	return true
}
