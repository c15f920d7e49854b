// Package shard is what one part of a sharded run writes (lmeval run
// --shard I/N) and what lmeval merge reads back (docs/scale.md): a shard
// file holds the shard's answers, keyed by request, with the run's
// identity (its plan's fingerprint, the model, lmeval's version), the
// settings it ran with and what its build asked of the model (Calls).
//
// A merge is an ordinary evaluation with a model that answers from the
// shards' files (Replay): the same build, the same order of answers, the
// same scoring, aggregation and samples, so the merged results are those
// of one run that got the same answers.
package shard

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/model"
	"github.com/lmeval/lmeval/internal/output"
)

// Format names the file format in every header.
const Format = "lmeval-shard/1"

// Header is a shard file's first line.
type Header struct {
	Format string `json:"format"`
	// Index and Count: the file is part Index of Count, from 0.
	Index int `json:"index"`
	Count int `json:"count"`
	// Run identifies the sharded run: the sha256 of lmeval's version,
	// the model's identity and the plan's fingerprint. Every shard of one
	// run has the same (Identity compares them and names what differs).
	Run         string              `json:"run"`
	LMEval      string              `json:"lmeval"`
	Model       ModelIdentity       `json:"model"`
	Fingerprint harness.Fingerprint `json:"fingerprint"`
	// Settings are the layers of settings the shard resolved
	// (config.EncodeLayers); Dir the working directory relative paths in
	// them are relative to; Args its command line.
	Settings json.RawMessage `json:"settings"`
	Dir      string          `json:"dir"`
	Args     []string        `json:"args"`
	// ResultsFile is the results file's name when --output_path named
	// one (a .json path), "" for a directory.
	ResultsFile string `json:"results_file,omitempty"`
	Host        string `json:"host"`
	// Started and Finished bound the shard's run; RunSeconds is the part
	// spent answering requests (its model time).
	Started    time.Time `json:"started"`
	Finished   time.Time `json:"finished"`
	RunSeconds float64   `json:"run_seconds"`
	// Requests are the unique requests the shard answered, Cost their
	// estimated work (harness.Split.Cost); Answers the lines that follow.
	Requests int   `json:"requests"`
	Cost     int64 `json:"cost"`
	Answers  int   `json:"answers"`
	// Info is the model's description at the end of the shard (its work
	// counters), Calls what the build asked of it.
	Info  *Info  `json:"info,omitempty"`
	Calls *Calls `json:"calls"`
}

// Info is a model's description as a shard file keeps it: the backend's
// own facts (model.Description.Facts, a struct of the backend's) as a
// list, which reads back as it was written.
type Info struct {
	model.Description
	Facts model.FactList `json:"facts,omitempty"`
}

// NewInfo is d as a shard file keeps it.
func NewInfo(d model.Description) *Info {
	in := &Info{Description: d, Facts: d.FactList()}
	in.Description.Facts = nil
	return in
}

// Model is the description the shard's model gave.
func (in *Info) Model() model.Description {
	d := in.Description
	d.Facts = in.Facts
	return d
}

// ModelIdentity is what makes two shards' models give the same answers:
// the backend, the model file's (or the server's model's) sha256, the
// model_args that change answers (cache.AnswerArgs, without the file's
// path, which may differ between machines) and max_length.
type ModelIdentity struct {
	Backend   string            `json:"backend"`
	SHA256    string            `json:"sha256,omitempty"`
	Args      map[string]string `json:"args"`
	MaxLength int               `json:"max_length,omitempty"`
}

// NewModelIdentity is the identity of a backend's model with model_args
// args and the description info (nil: none): the file's sha256, or the
// server's model's (the remote backend's model_sha256 fact), and the
// backend's max_length fact.
func NewModelIdentity(backend string, args map[string]string, info *model.Description) ModelIdentity {
	id := ModelIdentity{Backend: backend, Args: cache.AnswerArgs(args)}
	for _, k := range cache.FileArgs {
		delete(id.Args, k)
	}
	if info == nil {
		return id
	}
	if info.File != nil {
		id.SHA256 = info.File.SHA256
	} else if v, ok := info.Fact("model_sha256"); ok {
		id.SHA256 = fmt.Sprint(v)
	}
	if v, ok := info.Fact("max_length"); ok {
		id.MaxLength, _ = strconv.Atoi(fmt.Sprint(v))
	}
	return id
}

// RunID is the Run of a header with these parts.
func RunID(lmeval string, m ModelIdentity, f harness.Fingerprint) string {
	b, _ := json.Marshal(struct {
		V string
		M ModelIdentity
		F string
	}{lmeval, m, f.Hash()})
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Identity names the first difference between two headers' runs ("" when
// they are of one run), h's value first.
func (h *Header) Identity(o *Header) string {
	switch {
	case h.LMEval != o.LMEval:
		return fmt.Sprintf("lmeval version %s vs %s", h.LMEval, o.LMEval)
	case h.Model.Backend != o.Model.Backend:
		return fmt.Sprintf("--model %s vs %s", h.Model.Backend, o.Model.Backend)
	case h.Model.SHA256 != o.Model.SHA256:
		return fmt.Sprintf("model sha256 %s vs %s", orNone(h.Model.SHA256), orNone(o.Model.SHA256))
	case h.Model.MaxLength != o.Model.MaxLength:
		return fmt.Sprintf("max_length %d vs %d", h.Model.MaxLength, o.Model.MaxLength)
	}
	if !maps.Equal(h.Model.Args, o.Model.Args) {
		return fmt.Sprintf("model_args %v vs %v", h.Model.Args, o.Model.Args) // fmt sorts the keys
	}
	if d := h.Fingerprint.Diff(o.Fingerprint); d != "" {
		return d
	}
	if h.Run != o.Run {
		return "the run identity (the file was edited?)"
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// Name is a shard file's name: shard-I-of-N.jsonl (I zero-padded to N's
// width, so that a listing sorts by index).
func Name(index, count int) string {
	w := len(strconv.Itoa(count - 1))
	return fmt.Sprintf("shard-%0*d-of-%d.jsonl", w, index, count)
}

var namePattern = regexp.MustCompile(`^shard-(\d+)-of-(\d+)\.jsonl$`)

// Dir is the directory of a run's shard files under an output
// directory: shards-RUN (the run identity's first 12 hex digits), so that
// two runs written to one --output_path do not mix.
func Dir(outputDir, run string) string {
	return filepath.Join(outputDir, "shards-"+run[:12])
}

// Writer collects a shard's answers (the harness.Answers its Run hands
// them to) and writes the shard file.
type Writer struct {
	reqs harness.Requests
	ll   []model.LoglikelihoodResult
	roll []model.RollingResult
	gen  []string
	got  [3][]bool
}

var _ harness.Answers = (*Writer)(nil)

// NewWriter collects answers to the requests reqs (Workload.Requests).
func NewWriter(reqs harness.Requests) *Writer {
	return &Writer{
		reqs: reqs,
		ll:   make([]model.LoglikelihoodResult, len(reqs.Loglikelihood)),
		roll: make([]model.RollingResult, len(reqs.Rolling)),
		gen:  make([]string, len(reqs.Generate)),
		got:  [3][]bool{make([]bool, len(reqs.Loglikelihood)), make([]bool, len(reqs.Rolling)), make([]bool, len(reqs.Generate))},
	}
}

// Loglikelihood implements harness.Answers.
func (w *Writer) Loglikelihood(_ context.Context, i int, r model.LoglikelihoodResult) error {
	w.ll[i], w.got[0][i] = r, true
	return nil
}

// Rolling implements harness.Answers.
func (w *Writer) Rolling(_ context.Context, i int, r model.RollingResult) error {
	w.roll[i], w.got[1][i] = r, true
	return nil
}

// Generated implements harness.Answers.
func (w *Writer) Generated(_ context.Context, i int, text string) error {
	w.gen[i], w.got[2][i] = text, true
	return nil
}

// Answers is the number of answers collected.
func (w *Writer) Answers() int {
	n := 0
	for _, g := range w.got {
		for _, ok := range g {
			if ok {
				n++
			}
		}
	}
	return n
}

// Write writes the shard file: h (its Answers filled in), then one line
// per answer, in the streams' order. The file appears whole or not at
// all (written under another name, then renamed).
func (w *Writer) Write(path string, h *Header) error {
	var buf bytes.Buffer
	h.Format = Format
	h.Answers = w.Answers()
	hdr, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("shard %s: %w", path, err)
	}
	buf.Write(hdr)
	buf.WriteByte('\n')
	for i, ok := range w.got[0] {
		if ok {
			r := w.ll[i]
			if err := writeLine(&buf, "loglikelihood", w.reqs.Loglikelihood[i], line{LL: &llAnswer{num(r.LogProb), r.IsGreedy, r.NumTokens}}); err != nil {
				return err
			}
		}
	}
	for i, ok := range w.got[1] {
		if ok {
			r := w.roll[i]
			if err := writeLine(&buf, "loglikelihood_rolling", w.reqs.Rolling[i], line{Roll: &rollAnswer{num(r.LogProb), r.NumTokens}}); err != nil {
				return err
			}
		}
	}
	for i, ok := range w.got[2] {
		if ok {
			// The token counts come from the model when it gave them
			// (a Generator, Record): the results count thinking tokens.
			k, err := requestKey("generate_until", w.reqs.Generate[i])
			if err != nil {
				return fmt.Errorf("generate_until request: %w", err)
			}
			g := model.Uncounted([]string{w.gen[i]})[0]
			if h.Calls != nil {
				g = h.Calls.generation(k, w.gen[i])
			}
			l := line{Gen: &w.gen[i], Tokens: &g.Tokens, Reasoning: &g.ReasoningTokens, BudgetHit: g.BudgetHit}
			if err := writeLine(&buf, "generate_until", w.reqs.Generate[i], l); err != nil {
				return err
			}
		}
	}
	if err := output.WriteFileAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("shard %s: %w", path, err)
	}
	return nil
}

// line is one answer: the request's key (hex) and its answer, by kind;
// a generation with its token counts (-1: unknown).
type line struct {
	Key       string      `json:"k"`
	LL        *llAnswer   `json:"ll,omitempty"`
	Roll      *rollAnswer `json:"roll,omitempty"`
	Gen       *string     `json:"gen,omitempty"`
	Tokens    *int        `json:"tokens,omitempty"`
	Reasoning *int        `json:"reasoning,omitempty"`
	BudgetHit bool        `json:"budget_hit,omitempty"`
}

type llAnswer struct {
	LogProb  num  `json:"logprob"`
	IsGreedy bool `json:"greedy"`
	Tokens   int  `json:"tokens"`
}

type rollAnswer struct {
	LogProb num `json:"logprob"`
	Tokens  int `json:"tokens"`
}

// num is a float64 written exactly (the shortest text that reads back
// to the same bits), and as a string when JSON has no number for it
// (-Infinity, Infinity, NaN).
type num float64

func (n num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	switch {
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case math.IsInf(f, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Infinity"`), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

func (n *num) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"NaN"`:
		*n = num(math.NaN())
		return nil
	case `"Infinity"`:
		*n = num(math.Inf(1))
		return nil
	case `"-Infinity"`:
		*n = num(math.Inf(-1))
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("not a number: %s", b)
	}
	*n = num(f)
	return nil
}

// requestKey is the key of a request of a kind: the response cache's
// (cache.RequestKey), for no model.
func requestKey(kind string, req any) ([32]byte, error) {
	var k [32]byte
	b, err := cache.RequestKey("", kind, req)
	if err != nil {
		return k, err
	}
	copy(k[:], b)
	return k, nil
}

func writeLine(buf *bytes.Buffer, kind string, req any, l line) error {
	k, err := requestKey(kind, req)
	if err != nil {
		return fmt.Errorf("%s request: %w", kind, err)
	}
	l.Key = hex.EncodeToString(k[:])
	b, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("%s answer: %w", kind, err)
	}
	buf.Write(b)
	buf.WriteByte('\n')
	return nil
}

// File is a shard file read back.
type File struct {
	Path   string
	Header Header
	// Answers by request key.
	ll   map[[32]byte]model.LoglikelihoodResult
	roll map[[32]byte]model.RollingResult
	gen  map[[32]byte]model.Generation
}

// ReadHeader reads a shard file's header only.
func ReadHeader(path string) (*Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	first, err := r.ReadBytes('\n')
	if err != nil && !(errors.Is(err, io.EOF) && len(first) > 0) {
		return nil, fmt.Errorf("shard %s: no header: %w", path, err)
	}
	return parseHeader(path, first)
}

func parseHeader(path string, b []byte) (*Header, error) {
	var h Header
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("shard %s: header: %w", path, err)
	}
	if h.Format != Format {
		return nil, fmt.Errorf("shard %s: format %q, want %q (made by another lmeval version?)", path, h.Format, Format)
	}
	if h.Calls == nil {
		h.Calls = &Calls{}
	}
	return &h, nil
}

// Read reads a whole shard file.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	h, err := parseHeader(path, first)
	if err != nil {
		return nil, err
	}
	f := &File{Path: path, Header: *h,
		ll: map[[32]byte]model.LoglikelihoodResult{}, roll: map[[32]byte]model.RollingResult{}, gen: map[[32]byte]model.Generation{}}
	n := 0
	for no := 2; len(rest) > 0; no++ {
		var b []byte
		b, rest, _ = bytes.Cut(rest, []byte("\n"))
		if len(b) == 0 {
			continue
		}
		n++
		if k, ll, ok := parseLL(b); ok {
			f.ll[k] = ll
			continue
		}
		var l line
		if err := json.Unmarshal(b, &l); err != nil {
			return nil, fmt.Errorf("shard %s, line %d: %w", path, no, err)
		}
		var k [32]byte
		if kb, err := hex.DecodeString(l.Key); err != nil || len(kb) != len(k) {
			return nil, fmt.Errorf("shard %s, line %d: bad request key %q", path, no, l.Key)
		} else {
			copy(k[:], kb)
		}
		switch {
		case l.LL != nil:
			f.ll[k] = model.LoglikelihoodResult{LogProb: float64(l.LL.LogProb), IsGreedy: l.LL.IsGreedy, NumTokens: l.LL.Tokens}
		case l.Roll != nil:
			f.roll[k] = model.RollingResult{LogProb: float64(l.Roll.LogProb), NumTokens: l.Roll.Tokens}
		case l.Gen != nil:
			g := model.Uncounted([]string{*l.Gen})[0]
			if l.Tokens != nil && l.Reasoning != nil {
				g.Tokens, g.ReasoningTokens = *l.Tokens, *l.Reasoning
			}
			g.BudgetHit = l.BudgetHit
			f.gen[k] = g
		default:
			return nil, fmt.Errorf("shard %s, line %d: no answer", path, no)
		}
	}
	if n != h.Answers {
		return nil, fmt.Errorf("shard %s: %d answers, its header says %d (a truncated file?)", path, n, h.Answers)
	}
	return f, nil
}

// parseLL reads a log-likelihood answer line as Write writes it, without
// encoding/json (a merge reads hundreds of thousands); ok is false for
// any other line, which json.Unmarshal then reads.
func parseLL(b []byte) (k [32]byte, r model.LoglikelihoodResult, ok bool) {
	const pre, mid = `{"k":"`, `","ll":{"logprob":`
	if len(b) < len(pre)+64+len(mid) || string(b[:len(pre)]) != pre || string(b[len(pre)+64:len(pre)+64+len(mid)]) != mid {
		return k, r, false
	}
	if _, err := hex.Decode(k[:], b[len(pre):len(pre)+64]); err != nil {
		return k, r, false
	}
	rest := b[len(pre)+64+len(mid):]
	num, rest, ok := bytes.Cut(rest, []byte(`,"greedy":`))
	if !ok {
		return k, r, false
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		return k, r, false // a quoted -Infinity or NaN
	}
	greedy, rest, ok := bytes.Cut(rest, []byte(`,"tokens":`))
	if !ok || (string(greedy) != "true" && string(greedy) != "false") {
		return k, r, false
	}
	toks, ok := bytes.CutSuffix(rest, []byte("}}"))
	if !ok {
		return k, r, false
	}
	n, err := strconv.Atoi(string(toks))
	if err != nil {
		return k, r, false
	}
	return k, model.LoglikelihoodResult{LogProb: f, IsGreedy: string(greedy) == "true", NumTokens: n}, true
}

// Find lists the shard files under each of dirs (searched recursively;
// a file may be given as it is).
func Find(dirs ...string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			out = append(out, d)
			continue
		}
		err = filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && namePattern.MatchString(e.Name()) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
