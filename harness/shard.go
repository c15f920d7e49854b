package harness

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

// Sharding spreads one run over many processes (lmeval run --shard,
// docs/scale.md). Every shard plans and builds the whole run; the split is
// a function of the workload alone, so every shard computes the same one, and
// Run sends only the shard's part of the requests. lmeval merge then runs
// the workload again with a model that answers from the shards' outputs,
// so the merged results are those of one run that got the same answers.

// WithShard makes Run send only part index of count of the workload's
// requests (Workload.Split): count processes with the same settings and the
// indices 0 to count-1 answer every request once between them. The
// answers go to Run's Answers by their position in Requests, as always;
// a shard's documents are not all answered, so it is not scored.
func WithShard(index, count int) Option {
	return func(o *options) { o.shard = &shardOption{index: index, count: count} }
}

type shardOption struct{ index, count int }

// Split is the assignment of every unique request of a workload to one of n
// shards. It depends on the workload alone — never on the machine, the batch
// size, the model or how fast a shard runs — so every shard, and the
// merge, compute the same one.
//
// The unit is a document's requests in one stream (its choices, its
// repeats), kept together so that the engine shares their common prefix
// as in an unsharded run; a request several documents ask for goes with
// the first of them, so each is computed once in all. Units are balanced
// by their cost in bytes of text (costOf), per task: each task's units,
// largest first, go to the shard that has the least of that task so far,
// ties to the shard with the least in all, so every shard gets about 1/n
// of every task and of the total, whatever a task's cost per byte.
type Split struct {
	owner [numStreams][]int32 // by stream, request position -> shard
	cost  []int64
	reqs  []int
}

// The streams, in the order Run sends them.
const (
	streamLoglikelihood = iota
	streamRolling
	streamGenerate
	numStreams
)

// genTokenBytes is the cost of one token a generation may produce, in the
// bytes of prompt text it is counted as (a token is about 4 bytes of
// English): a generation costs its prompt plus its max_gen_toks budget.
// A generated token costs more than a prompt token in practice, but
// within a task the budget is the same for every document, so the split
// stays balanced per task whatever the true ratio.
const genTokenBytes = 4

// costOf is the split's estimate of the work of a document's requests in
// one stream, in bytes of text: the text the model reads, each prefix the
// requests share counted once (the engine computes it once); rolling
// texts in full; a generation's prompt plus genTokenBytes per token of its
// max_gen_toks. Bytes, not tokens: the cost must be known before a model
// is loaded, the same on every machine and for every backend, and within
// one run tokens follow bytes closely enough to balance the totals.
func costOf(reqs []any) int64 {
	var texts []string
	var cost int64
	for _, r := range reqs {
		switch r := r.(type) {
		case model.LoglikelihoodRequest:
			texts = append(texts, r.Context+r.Continuation)
		case model.RollingRequest:
			cost += int64(len(r.Text))
		case model.GenerateRequest:
			n := r.MaxGenToks
			if n <= 0 {
				n = task.DefaultMaxGenToks
			}
			cost += int64(len(r.Context) + genTokenBytes*n)
		}
	}
	if len(texts) == 0 {
		return cost
	}
	// The size of the texts' prefix tree: sorted, each text adds what it
	// does not share with the one before.
	slices.Sort(texts)
	prev := ""
	for _, t := range texts {
		cost += int64(len(t) - commonPrefix(prev, t))
		prev = t
	}
	return cost
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// splitUnit is one document's requests in one stream.
type splitUnit struct {
	tr   *taskRun
	pos  []int // request positions
	cost int64
}

// units groups a stream's requests by the document that asks first, in
// stream order.
func units[Req any](s *stream[Req]) []*splitUnit {
	var out []*splitUnit
	byDoc := map[docRef]*splitUnit{}
	for i := range s.reqs {
		t := s.targets[i][0]
		ref := docRef{t.tr, t.doc}
		u, ok := byDoc[ref]
		if !ok {
			u = &splitUnit{tr: t.tr}
			byDoc[ref] = u
			out = append(out, u)
		}
		u.pos = append(u.pos, i)
	}
	for _, u := range out {
		reqs := make([]any, len(u.pos))
		for j, p := range u.pos {
			reqs[j] = s.reqs[p]
		}
		u.cost = costOf(reqs)
	}
	return out
}

// Split assigns the workload's requests to n shards (see Split).
func (w *Workload) Split(n int) (*Split, error) {
	if n < 1 {
		return nil, fmt.Errorf("harness: split into %d shards: want at least 1", n)
	}
	st := w.st
	sp := &Split{cost: make([]int64, n), reqs: make([]int, n)}
	sp.owner[streamLoglikelihood] = make([]int32, len(st.ll.reqs))
	sp.owner[streamRolling] = make([]int32, len(st.roll.reqs))
	sp.owner[streamGenerate] = make([]int32, len(st.gen.reqs))
	order := make(map[*taskRun]int, len(w.plan.runs))
	for i, tr := range w.plan.runs {
		order[tr] = i
	}
	for k, us := range [numStreams][]*splitUnit{units(st.ll), units(st.roll), units(st.gen)} {
		// Task by task (evaluation order), each task's units largest
		// first; a stable sort keeps stream order among equals.
		sort.SliceStable(us, func(a, b int) bool {
			if ta, tb := order[us[a].tr], order[us[b].tr]; ta != tb {
				return ta < tb
			}
			return us[a].cost > us[b].cost
		})
		taskLoad := make([]int64, n)
		var cur *taskRun
		for _, u := range us {
			if u.tr != cur {
				cur = u.tr
				clear(taskLoad)
			}
			best := 0
			for s := 1; s < n; s++ {
				if c := cmp.Or(cmp.Compare(taskLoad[s], taskLoad[best]), cmp.Compare(sp.cost[s], sp.cost[best])); c < 0 {
					best = s
				}
			}
			taskLoad[best] += u.cost
			sp.cost[best] += u.cost
			sp.reqs[best] += len(u.pos)
			for _, p := range u.pos {
				sp.owner[k][p] = int32(best)
			}
		}
	}
	return sp, nil
}

// Shards is the number of shards.
func (sp *Split) Shards() int { return len(sp.cost) }

// Cost is shard i's estimated work, in bytes of text (see costOf).
func (sp *Split) Cost(i int) int64 { return sp.cost[i] }

// Requests is the number of unique requests shard i sends.
func (sp *Split) Requests(i int) int { return sp.reqs[i] }

// part is shard i's share of the streams, and the Answers that passes
// its answers on to a by their position in the whole streams.
func (sp *Split) part(st *streams, i int, a Answers) (*streams, Answers) {
	ll, llPos := subStream(st.ll, sp.owner[streamLoglikelihood], i)
	roll, rollPos := subStream(st.roll, sp.owner[streamRolling], i)
	gen, genPos := subStream(st.gen, sp.owner[streamGenerate], i)
	total := 0
	for _, ts := range [][][]target{ll.targets, roll.targets, gen.targets} {
		for _, t := range ts {
			total += len(t)
		}
	}
	return &streams{ll: ll, roll: roll, gen: gen, total: total},
		&partAnswers{a: a, pos: [numStreams][]int{llPos, rollPos, genPos}}
}

// subStream is the requests of s that owner gives shard i, and their
// positions in s.
func subStream[Req any](s *stream[Req], owner []int32, i int) (*stream[Req], []int) {
	out := &stream[Req]{kind: s.kind}
	var pos []int
	for p, o := range owner {
		if int(o) == i {
			out.reqs = append(out.reqs, s.reqs[p])
			out.targets = append(out.targets, s.targets[p])
			pos = append(pos, p)
		}
	}
	return out, pos
}

// partAnswers hands a shard's answers on by their whole-stream position.
type partAnswers struct {
	a   Answers
	pos [numStreams][]int
}

func (p *partAnswers) Loglikelihood(ctx context.Context, i int, r model.LoglikelihoodResult) error {
	return p.a.Loglikelihood(ctx, p.pos[streamLoglikelihood][i], r)
}

func (p *partAnswers) Rolling(ctx context.Context, i int, r model.RollingResult) error {
	return p.a.Rolling(ctx, p.pos[streamRolling][i], r)
}

func (p *partAnswers) Generated(ctx context.Context, i int, text string) error {
	return p.a.Generated(ctx, p.pos[streamGenerate][i], text)
}

// Fingerprint identifies what a workload asks a model and how it scores the
// answers: two workloads with the same fingerprint send the same requests,
// for the same documents, and score them the same way. The shards of a
// run and its merge compare theirs; Diff names what differs.
type Fingerprint struct {
	// Settings are the run settings that decide the requests and the
	// scores, as JSON (the model's identity is the caller's to compare).
	Settings map[string]string `json:"settings"`
	Tasks    []TaskFingerprint `json:"tasks"`
}

// TaskFingerprint is one task's part of a Fingerprint.
type TaskFingerprint struct {
	Name      string `json:"name"`
	Documents int    `json:"documents"`
	// Requests is the sha256 of the task's requests (each with the
	// document, instance and repeat it answers) and its documents'
	// targets and choices; Config that of its configuration as the
	// results' configs record it.
	Requests string `json:"requests"`
	Config   string `json:"config"`
}

// Hash is the fingerprint's sha256, in hex.
func (f Fingerprint) Hash() string {
	b, _ := json.Marshal(f) // maps marshal sorted
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Diff names the first difference between f and g ("" when there is
// none), f's value first.
func (f Fingerprint) Diff(g Fingerprint) string {
	for _, k := range slices.Sorted(mapKeys(f.Settings, g.Settings)) {
		if a, b := f.Settings[k], g.Settings[k]; a != b {
			return fmt.Sprintf("setting %s: %s vs %s", k, orNone(a), orNone(b))
		}
	}
	names := func(ts []TaskFingerprint) string {
		s := make([]string, len(ts))
		for i, t := range ts {
			s[i] = t.Name
		}
		return strings.Join(s, ",")
	}
	if len(f.Tasks) != len(g.Tasks) {
		return fmt.Sprintf("tasks: %s vs %s", names(f.Tasks), names(g.Tasks))
	}
	for i, a := range f.Tasks {
		b := g.Tasks[i]
		switch {
		case a.Name != b.Name:
			return fmt.Sprintf("tasks: %s vs %s", names(f.Tasks), names(g.Tasks))
		case a.Documents != b.Documents:
			return fmt.Sprintf("task %s: %d vs %d documents", a.Name, a.Documents, b.Documents)
		case a.Config != b.Config:
			return fmt.Sprintf("task %s: its configuration differs (the task's YAML or the settings it reads)", a.Name)
		case a.Requests != b.Requests:
			return fmt.Sprintf("task %s: its requests or targets differ (another dataset revision, prompt or tokenizer)", a.Name)
		}
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func mapKeys(ms ...map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		seen := map[string]bool{}
		for _, m := range ms {
			for k := range m {
				if !seen[k] {
					seen[k] = true
					if !yield(k) {
						return
					}
				}
			}
		}
	}
}

// Fingerprint computes the workload's fingerprint.
func (w *Workload) Fingerprint() Fingerprint {
	p := w.plan
	cfg := p.cfg
	settings := map[string]any{
		"tasks":                cfg.Tasks,
		"num_fewshot":          cfg.NumFewshot,
		"limit":                cfg.Limit,
		"samples":              cfg.Samples,
		"seed":                 cfg.Seeds,
		"gen_kwargs":           cfg.GenKwargs,
		"gen_kwargs_order":     cfg.GenKwargsOrder,
		"apply_chat_template":  cfg.ChatTemplate,
		"system_instruction":   cfg.SystemInstruction,
		"fewshot_as_multiturn": cfg.FewshotAsMultiturnValue(),
		"bootstrap_iters":      cfg.BootstrapIters,
		"predict_only":         cfg.PredictOnly,
		"log_samples":          cfg.LogSamples,
		"metadata":             p.taskMetadata(),
	}
	f := Fingerprint{Settings: map[string]string{}}
	for k, v := range settings {
		js, err := json.Marshal(v)
		if err != nil {
			js = []byte(fmt.Sprintf("%q", fmt.Sprint(v)))
		}
		f.Settings[k] = string(js)
	}
	hs := make(map[*taskRun]hash.Hash, len(p.runs))
	for _, tr := range p.runs {
		h := sha256.New()
		for _, d := range tr.t.Docs {
			writeInts(h, d.ID, d.Gold, len(d.Golds), len(d.Choices))
			writeInts(h, d.Golds...)
			writeParts(h, pyval.Repr(d.Target))
			writeParts(h, d.Choices...)
		}
		hs[tr] = h
	}
	fingerprintStream(w.st.ll, hs)
	fingerprintStream(w.st.roll, hs)
	fingerprintStream(w.st.gen, hs)
	for _, tr := range p.runs {
		conf := dumpConfig(tr.t)
		if m, ok := conf["metadata"].(map[string]any); ok {
			// What the model_args add to every task's metadata is the
			// model's identity, compared as such (a model file's path
			// may differ between machines).
			m = maps.Clone(m)
			for k := range cfg.ModelArgs {
				delete(m, k)
			}
			conf["metadata"] = m
		}
		js, _ := json.Marshal(conf)
		c := sha256.Sum256(js)
		f.Tasks = append(f.Tasks, TaskFingerprint{
			Name: tr.t.Name, Documents: len(tr.t.Docs),
			Requests: hex.EncodeToString(hs[tr].Sum(nil)), Config: hex.EncodeToString(c[:]),
		})
	}
	return f
}

// taskMetadata is --metadata without what the model_args put in it.
func (p *Plan) taskMetadata() map[string]any {
	m := maps.Clone(p.cfg.Metadata)
	for k, v := range p.cfg.ModelArgs {
		if fmt.Sprint(m[k]) == fmt.Sprint(v) {
			delete(m, k)
		}
	}
	return m
}

// fingerprintStream adds each request of s, with what it answers, to the
// hash of the tasks that ask it.
func fingerprintStream[Req any](s *stream[Req], hs map[*taskRun]hash.Hash) {
	keys := make([]string, len(s.reqs))
	for k, i := range s.index {
		keys[i] = k
	}
	for i, ts := range s.targets {
		for _, t := range ts {
			writeParts(hs[t.tr], s.kind, keys[i])
			writeInts(hs[t.tr], t.doc, t.inst, t.repeat)
		}
	}
}

// writeInts writes integers, 8 bytes each.
func writeInts(h hash.Hash, ns ...int) {
	var b [8]byte
	for _, n := range ns {
		binary.LittleEndian.PutUint64(b[:], uint64(n))
		h.Write(b[:])
	}
}

// writeParts writes length-prefixed parts, so no two lists share an
// encoding.
func writeParts(h hash.Hash, parts ...string) {
	for _, p := range parts {
		writeInts(h, len(p))
		io.WriteString(h, p)
	}
}
