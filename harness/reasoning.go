package harness

import (
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/results"
)

// generations keeps what the generate_until answers took, per task: the
// token counts of the results' lmeval.generation block and, for a
// reasoning model (think_end_token), each generation whole, trace
// included, for the samples file, while filters and metrics see only the
// answer (deliver strips the trace).
type generations struct {
	keep  bool // keep whole generations (a reasoning model's)
	stats map[*taskRun]*results.GenerationStats
	whole map[*taskRun]map[genKey]model.Generation
}

// genKey is one repeat of one instance of one document.
type genKey struct{ doc, inst, repeat int }

func newGenerations(keep bool) *generations {
	return &generations{keep: keep, stats: map[*taskRun]*results.GenerationStats{}, whole: map[*taskRun]map[genKey]model.Generation{}}
}

// boundsReasoning reports whether the backend behind lm's wrappers (the
// response cache) follows GenerateRequest.Reasoning.
func boundsReasoning(lm model.LM) bool {
	for lm != nil {
		if w, ok := lm.(model.Wrapper); ok {
			lm = w.Unwrap()
			continue
		}
		_, ok := lm.(model.Generator)
		return ok
	}
	return false
}

// record counts generation g, the answer to the requests of targets, for
// each target's task, before the answer is delivered.
func (gs *generations) record(targets []target, g model.Generation) {
	for _, t := range targets {
		st := gs.stats[t.tr]
		if st == nil {
			st = &results.GenerationStats{}
			gs.stats[t.tr] = st
		}
		st.Add(g.Tokens, g.ReasoningTokens, g.BudgetHit)
		if gs.keep {
			m := gs.whole[t.tr]
			if m == nil {
				m = map[genKey]model.Generation{}
				gs.whole[t.tr] = m
			}
			m[genKey{t.doc, t.inst, t.repeat}] = g
		}
	}
}

// annotate adds document p's whole generations to its sample.
func (gs *generations) annotate(s *results.Sample, ts *taskScores, p int) {
	m := gs.whole[ts.run]
	if m == nil {
		return
	}
	ins := ts.run.insts[p]
	out := make([][]results.GenerationRecord, len(ins))
	found := false
	for j := range ins {
		out[j] = make([]results.GenerationRecord, len(ts.resps[p][j]))
		for r := range out[j] {
			if g, ok := m[genKey{p, j, r}]; ok {
				found = true
				out[j][r] = results.GenerationRecord{Text: g.Text, Tokens: g.Tokens, ThinkingTokens: g.ReasoningTokens, BudgetHit: g.BudgetHit}
			}
		}
	}
	if found {
		s.Generations = out
	}
}

// report fills the results' per-task generation counts: of tasks whose
// tokens were counted, and of every generative task of a reasoning model.
func (gs *generations) report(b *results.LMEval, runs []*taskRun) {
	for _, tr := range runs {
		if st := gs.stats[tr]; st != nil && (st.Counted > 0 || gs.keep) {
			if b.Generation == nil {
				b.Generation = map[string]*results.GenerationStats{}
			}
			b.Generation[tr.t.Name] = st
		}
	}
}
