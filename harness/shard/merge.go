package shard

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lmeval/lmeval/harness/model"
)

// Set is the shard files of one run, read and checked: all of one run,
// each part once, none missing.
type Set struct {
	// Files are the shards by index.
	Files  []*File
	opened time.Time
}

// Open reads the shard files at paths and checks that they are the
// shards of one run, each once and all present; the errors name the files
// and shards at fault, and a missing shard's error gives the command that
// makes it.
func Open(paths []string) (*Set, error) {
	opened := time.Now()
	if len(paths) == 0 {
		return nil, errors.New("no shard files (shard-I-of-N.jsonl)")
	}
	// Headers first: a wrong set fails before the answers are read.
	hs := make([]*Header, len(paths))
	for i, p := range paths {
		h, err := ReadHeader(p)
		if err != nil {
			return nil, err
		}
		hs[i] = h
	}
	if err := check(paths, hs); err != nil {
		return nil, err
	}
	s := &Set{Files: make([]*File, hs[0].Count), opened: opened}
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := Read(p)
			if err != nil {
				errs[i] = err
				return
			}
			s.Files[f.Header.Index] = f
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for _, f := range s.Files {
		if f.Header.Answers != f.Header.Requests {
			return nil, fmt.Errorf("shard %s: %d answers for its %d requests", f.Path, f.Header.Answers, f.Header.Requests)
		}
	}
	return s, nil
}

// check says what is wrong with a set of headers, if anything.
func check(paths []string, hs []*Header) error {
	// One run: group the files by run, name the groups when there are
	// several, and what differs between the first two.
	runs := map[string][]int{}
	var order []string
	for i, h := range hs {
		if _, ok := runs[h.Run]; !ok {
			order = append(order, h.Run)
		}
		runs[h.Run] = append(runs[h.Run], i)
	}
	if len(order) > 1 {
		var desc []string
		for _, r := range order {
			idx := runs[r]
			files := "1 file"
			if len(idx) > 1 {
				files = fmt.Sprintf("%d files", len(idx))
			}
			desc = append(desc, fmt.Sprintf("run %s (%s, e.g. %s)", r[:12], files, paths[idx[0]]))
		}
		a, b := hs[runs[order[0]][0]], hs[runs[order[1]][0]]
		return fmt.Errorf("the shard files are of %d different runs: %s; they differ in %s: merge one run's shards at a time",
			len(order), strings.Join(desc, "; "), a.Identity(b))
	}
	byIndex := map[int]int{}
	for i, h := range hs {
		if h.Count != hs[0].Count {
			return fmt.Errorf("%s is shard %d of %d, but %s is shard %d of %d: every shard of a run must be given the same count (rerun the odd one with --shard %d/%d)",
				paths[i], h.Index, h.Count, paths[0], hs[0].Index, hs[0].Count, h.Index, hs[0].Count)
		}
		if h.Index < 0 || h.Index >= h.Count {
			return fmt.Errorf("%s: shard %d of %d is out of range", paths[i], h.Index, h.Count)
		}
		if j, dup := byIndex[h.Index]; dup {
			return fmt.Errorf("shard %d of %d is given twice: %s and %s (remove one)", h.Index, h.Count, paths[j], paths[i])
		}
		byIndex[h.Index] = i
	}
	var missing []int
	for i := range hs[0].Count {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i] = fmt.Sprint(m)
		}
		which := "shard " + names[0]
		if len(missing) > 1 {
			which = "shards " + strings.Join(names, ", ")
		}
		return fmt.Errorf("%s of %d missing (%d of %d present): run it as the others ran (its Slurm array task, its Job's index), or as shard 0 ran with --shard %d/%d: %s",
			which, hs[0].Count, len(hs), hs[0].Count, missing[0], hs[0].Count, rerun(hs[0], missing[0]))
	}
	return nil
}

// rerun is the command line that makes shard index of a run, from the
// command line h's shard ran with.
func rerun(h *Header, index int) string {
	args := []string{"lmeval"}
	shard := fmt.Sprintf("%d/%d", index, h.Count)
	replaced := false
	for i := 0; i < len(h.Args); i++ {
		a := h.Args[i]
		switch {
		case a == "--shard" && i+1 < len(h.Args):
			args = append(args, a, shard)
			i++
			replaced = true
		case strings.HasPrefix(a, "--shard="):
			args = append(args, "--shard="+shard)
			replaced = true
		default:
			args = append(args, a)
		}
	}
	if !replaced {
		args = append(args, "--shard", shard)
	}
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Header is the header of shard 0, whose settings a merge resolves.
func (s *Set) Header() *Header { return &s.Files[0].Header }

// Span is when the first shard started and when the last one finished.
func (s *Set) Span() (started, finished time.Time) {
	started, finished = s.Files[0].Header.Started, s.Files[0].Header.Finished
	for _, f := range s.Files {
		if f.Header.Started.Before(started) {
			started = f.Header.Started
		}
		if f.Header.Finished.After(finished) {
			finished = f.Header.Finished
		}
	}
	return started, finished
}

// RunSeconds is the shards' model time, summed.
func (s *Set) RunSeconds() float64 {
	t := 0.0
	for _, f := range s.Files {
		t += f.Header.RunSeconds
	}
	return t
}

// Info is the model's description as one run would give it: shard 0's,
// with the work counters and the response cache's hits and misses summed
// over the shards.
func (s *Set) Info() *model.Description {
	h := s.Files[0].Header
	if h.Info == nil {
		return nil
	}
	in := h.Info.Model()
	if in.Work != nil {
		w := model.Work{}
		for _, f := range s.Files {
			if x := f.Header.Info; x != nil && x.Work != nil {
				w.TokensRequested += x.Work.TokensRequested
				w.TokensDecoded += x.Work.TokensDecoded
				w.Truncated += x.Work.Truncated
			}
		}
		in.Work = &w
	}
	if in.Cache != nil {
		c := *in.Cache
		c.Hits, c.Misses = 0, 0
		for _, f := range s.Files {
			if x := f.Header.Info; x != nil && x.Cache != nil {
				c.Hits += x.Cache.Hits
				c.Misses += x.Cache.Misses
			}
		}
		in.Cache = &c
	}
	return &in
}

// Replay is the model a merge evaluates with: it answers every request
// from the shards' answers and every other question from the calls they
// recorded, with exactly the optional interfaces their model had.
type Replay struct {
	ll   map[[32]byte]model.LoglikelihoodResult
	roll map[[32]byte]model.RollingResult
	gen  map[[32]byte]model.Generation
	info *model.Description

	mu     sync.Mutex
	used   int
	missed []string
}

// Model returns the replaying model of the set, and the Replay for its
// checks after the evaluation (Check).
func (s *Set) Model() (model.LM, *Replay, error) {
	var nll, nroll, ngen int
	for _, f := range s.Files {
		nll, nroll, ngen = nll+len(f.ll), nroll+len(f.roll), ngen+len(f.gen)
	}
	r := &Replay{ll: make(map[[32]byte]model.LoglikelihoodResult, nll), roll: make(map[[32]byte]model.RollingResult, nroll),
		gen: make(map[[32]byte]model.Generation, ngen), info: s.Info()}
	calls := &Calls{Has: s.Files[0].Header.Calls.Has}
	for _, f := range s.Files {
		calls.merge(f.Header.Calls)
		// The shards split the requests: an answer in two of them means
		// they split the run differently.
		if union(r.ll, f.ll) || union(r.roll, f.roll) || union(r.gen, f.gen) {
			return nil, nil, fmt.Errorf("shard %s answered a request another shard answered too: the shards split the run differently (made by another lmeval?)", f.Path)
		}
	}
	var lm model.LM = &replayLM{r}
	if calls.has(CapGenerator) {
		// A backend that counts its generations' tokens (and, behind
		// the wrappers, follows a reasoning budget: the harness looks).
		lm = &replayGenLM{replayLM{r}}
	}
	if calls.has(CapDescriber) {
		lm = &describing{layer{lm}, r}
	}
	if calls.has(CapFileHasher) {
		lm = &hashing{layer{lm}, r}
	}
	lm = replayLayers(lm, calls, r.miss)
	if calls.has(CapGenerator) {
		// model.Generate asks only the outermost model.
		lm = &generating{layer{lm}, (&replayGenLM{replayLM{r}}).Generate}
	}
	return lm, r, nil
}

// union adds src's answers to dst, reporting whether one was there.
func union[V any](dst, src map[[32]byte]V) (dup bool) {
	for k, v := range src {
		if _, ok := dst[k]; ok {
			return true
		}
		dst[k] = v
	}
	return false
}

func (r *Replay) miss(what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.missed = append(r.missed, what)
}

// Check reports what the evaluation asked that no shard recorded, and
// answers no request asked for: either means the merge did not rebuild
// the shards' run.
func (r *Replay) Check() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.missed) > 0 {
		sort.Strings(r.missed)
		return fmt.Errorf("the merge asked the model for %s (and %d more things) that no shard recorded: the shards ran another build", r.missed[0], len(r.missed)-1)
	}
	if n := len(r.ll) + len(r.roll) + len(r.gen); r.used != n {
		return fmt.Errorf("the shards answered %d requests, the merge asked %d of them: the shards ran another build", n, r.used)
	}
	return nil
}

// replayLM answers requests from the shards' answers.
type replayLM struct{ r *Replay }

func (m *replayLM) Loglikelihood(ctx context.Context, reqs []model.LoglikelihoodRequest) ([]model.LoglikelihoodResult, error) {
	return lookup(m.r, "loglikelihood", reqs, m.r.ll)
}

func (m *replayLM) LoglikelihoodRolling(ctx context.Context, reqs []model.RollingRequest) ([]model.RollingResult, error) {
	return lookup(m.r, "loglikelihood_rolling", reqs, m.r.roll)
}

func (m *replayLM) GenerateUntil(ctx context.Context, reqs []model.GenerateRequest) ([]string, error) {
	gens, err := lookup(m.r, "generate_until", reqs, m.r.gen)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(gens))
	for i, g := range gens {
		texts[i] = g.Text
	}
	return texts, nil
}

func lookup[Req, Res any](r *Replay, kind string, reqs []Req, answers map[[32]byte]Res) ([]Res, error) {
	out := make([]Res, len(reqs))
	for i, q := range reqs {
		k, err := requestKey(kind, q)
		if err != nil {
			return nil, &model.RequestError{Index: i, Err: err}
		}
		a, ok := answers[k]
		if !ok {
			return nil, &model.RequestError{Index: i, Err: errors.New("no shard answered it: the shards ran another build")}
		}
		out[i] = a
	}
	r.mu.Lock()
	r.used += len(reqs)
	r.mu.Unlock()
	return out, nil
}

// replayGenLM is replayLM with the token counts of the generations.
type replayGenLM struct{ replayLM }

func (m *replayGenLM) Generate(_ context.Context, reqs []model.GenerateRequest) ([]model.Generation, error) {
	return lookup(m.r, "generate_until", reqs, m.r.gen)
}

// describing gives the shards' description, merged (Set.Info).
type describing struct {
	layer
	r *Replay
}

func (d *describing) Describe() model.Description {
	if d.r.info == nil {
		return model.Description{}
	}
	return *d.r.info
}

// hashing gives the model file's sha256 the shards recorded.
type hashing struct {
	layer
	r *Replay
}

func (h *hashing) SHA256() (string, error) {
	if h.r.info != nil && h.r.info.File != nil {
		return h.r.info.File.SHA256, nil
	}
	return "", nil
}

func (h *hashing) SetSHA256(string) {}

var (
	_ model.LM         = (*replayLM)(nil)
	_ model.Generator  = (*replayGenLM)(nil)
	_ model.Describer  = (*describing)(nil)
	_ model.FileHasher = (*hashing)(nil)
)
