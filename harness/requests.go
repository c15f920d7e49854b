package harness

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/harness/task"
)

// target is where one answer goes: a document's instance and repeat.
type target struct {
	tr     *taskRun
	doc    int // position in the task's documents
	inst   int // position among the document's instances
	repeat int
}

// stream is one request type's unique requests across all tasks, with
// where each answer goes.
type stream[Req any] struct {
	kind    string
	reqs    []Req
	targets [][]target
	index   map[string]int
}

func newStream[Req any](kind model.OutputType) *stream[Req] {
	return &stream[Req]{kind: string(kind), index: map[string]int{}}
}

// add records a request, merging it with an identical one.
func (s *stream[Req]) add(key string, r Req, t target) {
	i, ok := s.index[key]
	if !ok {
		i = len(s.reqs)
		s.index[key] = i
		s.reqs = append(s.reqs, r)
		s.targets = append(s.targets, nil)
	}
	s.targets[i] = append(s.targets[i], t)
}

// sortByDocument orders the stream by document, longest document first
// (lm-eval's Collator order, so memory problems show at once and the time
// estimate errs long), keeping each document's requests together so that
// documents complete, and their samples are written, as the run goes.
func (s *stream[Req]) sortByDocument(docLen func(t target) int) {
	type item struct {
		r   Req
		t   []target
		key string
		n   int
		doc docRef
		pos int
	}
	items := make([]item, len(s.reqs))
	lens := map[docRef]int{} // each document's length, computed once
	for k, i := range s.index {
		t := s.targets[i][0]
		ref := docRef{t.tr, t.doc}
		n, ok := lens[ref]
		if !ok {
			n = docLen(t)
			lens[ref] = n
		}
		items[i] = item{s.reqs[i], s.targets[i], k, n, ref, i}
	}
	// A document's place is that of its first request.
	first := map[docRef]int{}
	for i, it := range items {
		if _, ok := first[it.doc]; !ok {
			first[it.doc] = i
		}
	}
	sort.SliceStable(items, func(a, b int) bool {
		if items[a].n != items[b].n {
			return items[a].n > items[b].n
		}
		return first[items[a].doc] < first[items[b].doc]
	})
	for i, it := range items {
		s.reqs[i], s.targets[i] = it.r, it.t
		s.index[it.key] = i
	}
}

type docRef struct {
	tr  *taskRun
	doc int
}

// hashKey identifies a request by the SHA-256 of its parts, so the index
// does not hold a copy of every (often long, few-shot) context.
func hashKey(parts ...string) string {
	h := sha256.New()
	writeParts(h, parts...)
	return string(h.Sum(nil))
}

// streams are the model's work: each request type's unique requests
// across all tasks, in the order they are sent, with where each answer
// goes.
type streams struct {
	ll    *stream[model.LoglikelihoodRequest]
	roll  *stream[model.RollingRequest]
	gen   *stream[model.GenerateRequest]
	total int // requests before duplicates were merged
}

// requests gathers the requests of every task by type and removes
// duplicates; each type is ordered by document (sortByDocument), so that
// documents complete, and their samples are written, as the run goes.
func (w *Workload) requests() (*streams, error) {
	ll := newStream[model.LoglikelihoodRequest](task.OutputLoglikelihood)
	roll := newStream[model.RollingRequest](task.OutputLoglikelihoodRolling)
	gen := newStream[model.GenerateRequest](task.OutputGenerateUntil)
	total := 0
	sink := &requestSink{ll: ll, roll: roll, gen: gen}
	for _, tr := range w.plan.runs {
		for p, ins := range tr.insts {
			for j, in := range ins {
				for r := 0; r < max(in.Repeats, 1); r++ {
					total++
					sink.t = target{tr: tr, doc: p, inst: j, repeat: r}
					if err := in.SendTo(sink); err != nil {
						return nil, fmt.Errorf("task %s: %w", tr.t.Name, err)
					}
					if sink.err != nil {
						return nil, sink.err
					}
				}
			}
		}
	}
	for _, s := range []interface{ sortByDocument(func(target) int) }{ll, roll, gen} {
		s.sortByDocument(docLength)
	}
	// A reasoning model's generations carry its trace's markers and
	// budget, for the backend to follow.
	r, err := w.plan.chat.reasoning()
	if err != nil {
		return nil, err
	}
	if r != nil && r.Budget >= 0 && len(gen.reqs) > 0 && !boundsReasoning(w.lm) {
		return nil, fmt.Errorf("model_args reasoning_budget: this model's backend cannot bound a reasoning trace (the llama backend does)")
	}
	for i := range gen.reqs {
		gen.reqs[i].Reasoning = r
	}
	return &streams{ll: ll, roll: roll, gen: gen, total: total}, nil
}

// run sends each request type to lm as one stream (in chunks, so that
// progress shows and documents complete as the run goes) and hands every
// answer to a as it arrives.
func (w *Workload) run(ctx context.Context, lm model.LM, st *streams, a Answers) error {
	if len(st.ll.reqs) > 0 && w.plan.chat.enableThinking != nil && *w.plan.chat.enableThinking {
		names := map[string]bool{}
		for _, tr := range w.plan.runs {
			for _, ins := range tr.insts {
				if len(ins) > 0 && ins[0].Type == task.OutputLoglikelihood {
					names[tr.t.Name] = true
				}
			}
		}
		return thinkingLoglikelihoodError(names)
	}
	slog.Info("requests", "total", st.total, "unique", st.unique(), "merged", st.total-st.unique(),
		"loglikelihood", len(st.ll.reqs), "loglikelihood_rolling", len(st.roll.reqs), "generate_until", len(st.gen.reqs))
	disp := progress.FromContext(ctx)
	tc, _ := model.As[model.TokenCounter](lm)
	ll, roll, gen := countTokens(tc, st.ll, disp.Enabled()), countTokens(tc, st.roll, disp.Enabled()), countTokens(tc, st.gen, disp.Enabled())
	if tc != nil {
		w.warnTruncated(tc.MaxLength(), st, ll, gen)
	}
	chunk := w.plan.opts.chunk
	if err := runStream(ctx, chunk, disp, st.ll, ll, lm.Loglikelihood, a.Loglikelihood); err != nil {
		return err
	}
	if err := runStream(ctx, chunk, disp, st.roll, roll, lm.LoglikelihoodRolling, a.Rolling); err != nil {
		return err
	}
	generate := func(ctx context.Context, reqs []model.GenerateRequest) ([]model.Generation, error) {
		return model.Generate(ctx, lm, reqs)
	}
	return runStream(ctx, chunk, disp, st.gen, gen, generate, func(ctx context.Context, i int, g model.Generation) error {
		if i >= 0 && i < len(st.gen.targets) {
			w.gens.record(st.gen.targets[i], g)
		}
		return a.Generated(ctx, i, g.Text)
	})
}

// unique is the number of requests sent to the model: identical requests
// (the same context and continuation in two tasks, greedy repeats) are
// merged into one.
func (st *streams) unique() int { return len(st.ll.reqs) + len(st.roll.reqs) + len(st.gen.reqs) }

// tokenSlack bounds the tokens a text has beyond one per byte: a
// tokenizer's dummy-prefix space and the BOS and EOS it adds. A text of n
// bytes has at most n+tokenSlack tokens.
const tokenSlack = 4

// countTokens counts the tokens of s's requests with tc (nil: none): all
// of them when all is set (for the progress bar), else those whose text
// is long enough that the model may cut them (truncLimit). An uncounted
// request is -1; nil when none is counted.
func countTokens[Req any](tc model.TokenCounter, s *stream[Req], all bool) []int {
	if tc == nil || len(s.reqs) == 0 {
		return nil
	}
	maxLen := tc.MaxLength()
	toks := make([]int, len(s.reqs))
	some := false
	for i, r := range s.reqs {
		toks[i] = -1
		text := requestText(any(r))
		if limit, cut := truncLimit(any(r), maxLen); !all && (!cut || len(text)+tokenSlack <= limit) {
			continue
		}
		n, err := tc.CountTokens(text)
		if err != nil {
			return nil
		}
		toks[i], some = n, true
	}
	if !some {
		return nil
	}
	return toks
}

// truncLimit is the most tokens a request's text (requestText) may have
// before the model cuts it from the left to fit max_length, as the llama
// engine (and lm-eval's HF model) do: context and continuation together
// max_length+1 (the last token is predicted, not fed), a generation's
// context max_length minus the tokens to generate. cut is false for
// requests that are never cut (rolling windows).
func truncLimit(r any, maxLen int) (limit int, cut bool) {
	switch r := r.(type) {
	case model.LoglikelihoodRequest:
		return maxLen + 1, true
	case model.GenerateRequest:
		gen := r.MaxGenToks
		if gen <= 0 {
			gen = task.DefaultMaxGenToks
		}
		return maxLen - gen, true
	}
	return 0, false
}

// warnTruncated counts, per task, the requests the model will cut to fit
// maxLen (ll and gen are the streams' token counts, countTokens), records
// them in the tasks' data problems and warns once per task.
func (w *Workload) warnTruncated(maxLen int, st *streams, ll, gen []int) {
	count := func(n int, limit int, targets []target) {
		if n < 0 || n <= limit {
			return
		}
		for _, t := range targets {
			if t.repeat == 0 {
				t.tr.problems.Truncated++
			}
		}
	}
	for i, n := range ll {
		count(n, maxLen+1, st.ll.targets[i])
	}
	for i, n := range gen {
		limit, _ := truncLimit(st.gen.reqs[i], maxLen)
		count(n, limit, st.gen.targets[i])
	}
	for _, tr := range w.plan.runs {
		if n := tr.problems.Truncated; n > 0 {
			slog.Warn("requests truncated: their context is cut from the left to fit max_length, so the model does not see the start of the prompt",
				"task", tr.t.Name, "requests", n, "max_length", maxLen)
		}
	}
}

// requestSink is where one repeat of one instance's request goes: the
// stream of its kind, merged with identical requests (task.RequestSink).
type requestSink struct {
	ll   *stream[model.LoglikelihoodRequest]
	roll *stream[model.RollingRequest]
	gen  *stream[model.GenerateRequest]
	t    target
	err  error
}

func (s *requestSink) Loglikelihood(r model.LoglikelihoodRequest) {
	s.ll.add(hashKey(r.Context, r.Continuation), r, s.t)
}

func (s *requestSink) Rolling(r model.RollingRequest) { s.roll.add(hashKey(r.Text), r, s.t) }

func (s *requestSink) Generate(g model.GenerateRequest) {
	rep := s.t.repeat
	if g.DoSample && rep > 0 {
		// Repeats of a sampled generation must differ, as lm-eval's do by
		// drawing on; a seed per repeat keeps them reproducible.
		g.Seed += int64(rep)
	}
	key, err := json.Marshal(g)
	if err != nil {
		s.err = err
		return
	}
	if !g.DoSample {
		// Greedy repeats are one request.
		key = append(key, '#')
	} else {
		key = fmt.Appendf(key, "#%d", rep)
	}
	s.gen.add(hashKey(string(key)), g, s.t)
}

// answer delivers the answer to request i of st to every document that
// asked for it.
func answer[Req any](ctx context.Context, s *Scorer, st *stream[Req], i int, v any) error {
	if i < 0 || i >= len(st.reqs) {
		return fmt.Errorf("%s answer %d: there are %d requests", st.kind, i, len(st.reqs))
	}
	for _, t := range st.targets[i] {
		if err := s.deliver(ctx, t, v); err != nil {
			return err
		}
	}
	return nil
}

// chunkSize is how many unique requests of n go to the model at once:
// chunk when set (WithChunkSize), else the whole stream for small runs and
// a twentieth of it (at least 1024) for large ones, so the engine still
// sees large batches.
func chunkSize(chunk, n int) int {
	if chunk > 0 {
		return chunk
	}
	return max(1024, (n+19)/20)
}

func runStream[Req, Res any](ctx context.Context, chunkOpt int, disp *progress.Display, s *stream[Req], counted []int,
	call func(context.Context, []Req) ([]Res, error), put func(context.Context, int, Res) error) error {
	if len(s.reqs) == 0 {
		return nil
	}
	slog.Info("running requests", "type", s.kind, "requests", len(s.reqs))
	// With every request's tokens counted (a model that counts tokens,
	// and a bar to draw) the bar advances by tokens, so its rate is
	// tokens/s and its ETA the tokens remaining.
	var toks []int
	total := 0
	if disp.Enabled() && counted != nil && !slices.Contains(counted, -1) {
		toks = counted
		for _, n := range toks {
			total += n
		}
	}
	phase := disp.Phase(s.kind, len(s.reqs), total)
	defer phase.Finish()
	chunk := chunkSize(chunkOpt, len(s.reqs))
	for start := 0; start < len(s.reqs); start += chunk {
		end := min(start+chunk, len(s.reqs))
		done := 0
		if toks != nil {
			for _, n := range toks[start:end] {
				done += n
			}
		}
		// The model may report requests as they finish, so the bar moves
		// within the chunk; the chunk adds whatever it did not report once
		// the call returns.
		part := phase.Chunk(end-start, done)
		cctx := ctx
		if disp.Enabled() {
			cctx = progress.NewReporterContext(ctx, part)
		}
		res, err := call(cctx, s.reqs[start:end])
		if err != nil {
			var re *model.RequestError
			if errors.As(err, &re) && re.Index >= 0 && re.Index < end-start {
				return fmt.Errorf("%s request of %s: %w", s.kind, s.where(start+re.Index), err)
			}
			return fmt.Errorf("%s requests: %w", s.kind, err)
		}
		if len(res) != end-start {
			return fmt.Errorf("%s requests: the model answered %d of %d", s.kind, len(res), end-start)
		}
		for i, r := range res {
			if err := put(ctx, start+i, r); err != nil {
				return err
			}
		}
		part.Close()
	}
	return nil
}

// where names the tasks and documents a request serves (identical
// requests are merged, so there may be several).
func (s *stream[Req]) where(i int) string {
	var parts []string
	for k, t := range s.targets[i] {
		if k == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(s.targets[i])-k))
			break
		}
		parts = append(parts, fmt.Sprintf("task %s, doc_id %d", t.tr.t.Name, t.tr.t.Docs[t.doc].ID))
	}
	return strings.Join(parts, "; ")
}

// docLength is the length of a document's longest request text.
func docLength(t target) int {
	n := 0
	for i := range t.tr.insts[t.doc] {
		n = max(n, t.tr.insts[t.doc][i].TextLen())
	}
	return n
}

// requestText is the text of a request whose tokens the progress bar
// counts.
func requestText(r any) string {
	if x, ok := r.(interface{ FullText() string }); ok {
		return x.FullText()
	}
	return ""
}

// deliver stores one answer and scores the document when it has them all.
func (s *Scorer) deliver(ctx context.Context, t target, v any) error {
	tr := t.tr
	if str, ok := v.(string); ok && s.w.plan.chat.thinkEnd != "" {
		// The reasoning trace goes before filters see the answer, as
		// lm-eval's models strip it (postprocess_generated_text).
		if in := tr.insts[t.doc][t.inst]; in.Type == task.OutputGenerateUntil {
			v = s.w.plan.chat.postprocess(str, in.Generate.Until)
		}
	}
	ts := s.tasks[tr.index]
	ts.resps[t.doc][t.inst][t.repeat] = v
	ts.pending[t.doc]--
	if ts.pending[t.doc] == 0 {
		return s.complete(ctx, ts, t.doc)
	}
	return nil
}
