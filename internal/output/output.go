// Package output lays out a run's files as lm-eval does: results JSON and
// per-task samples JSONL under --output_path, named by model and
// timestamp. Samples are streamed, one line per document as it completes,
// so a crash keeps what was done; until the run completes they are in a
// file marked partial. Files get the mode the user's umask gives.
package output

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lmeval/lmeval/harness/results"
)

// DateID formats t as lm-eval's file timestamps: Python's isoformat
// (microseconds only when non-zero) with ':' replaced by '-'.
func DateID(t time.Time) string {
	layout := "2006-01-02T15:04:05"
	s := t.Format(layout)
	if us := t.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	return strings.ReplaceAll(s, ":", "-")
}

// Layout is where one run's files go.
type Layout struct {
	// Dir holds the samples files (and the results file unless the
	// output path named it).
	Dir string
	// ResultsFile is the results JSON.
	ResultsFile string
	// DateID is the timestamp in every file name.
	DateID string
}

// NewLayout lays out a run started at now. An outputPath ending in ".json"
// is the results file itself and the samples go beside it; any other path
// is a directory that gets <model_name_sanitized>/results_<DateID>.json.
func NewLayout(outputPath, modelName string, now time.Time) Layout {
	id := DateID(now)
	if strings.EqualFold(filepath.Ext(outputPath), ".json") {
		return Layout{Dir: filepath.Dir(outputPath), ResultsFile: outputPath, DateID: id}
	}
	dir := filepath.Join(outputPath, results.SanitizeModelName(modelName))
	return Layout{Dir: dir, ResultsFile: filepath.Join(dir, "results_"+id+".json"), DateID: id}
}

// ReadLayout is the layout of the run whose results file is path, for
// reading its samples: a results_<DateID>.json file names its date id;
// for another name (an --output_path ending in .json) DateID is empty.
func ReadLayout(path string) Layout {
	l := Layout{Dir: filepath.Dir(path), ResultsFile: path}
	base := filepath.Base(path)
	if strings.HasPrefix(base, "results_") && strings.HasSuffix(base, ".json") {
		l.DateID = strings.TrimSuffix(strings.TrimPrefix(base, "results_"), ".json")
	}
	return l
}

// SamplesFile is the JSONL file of task's per-document samples.
func (l Layout) SamplesFile(task string) string {
	return filepath.Join(l.Dir, "samples_"+task+"_"+l.DateID+".jsonl")
}

// Marshal encodes v as lm-eval writes its results: indented by two spaces,
// non-ASCII kept as is (ensure_ascii=False), no HTML escaping.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Check reports, before any work, whether the run's files can be written
// where the layout puts them: the results file and the samples directory
// (each, or the first of their parent directories that exists, must be a
// writable directory). It creates nothing.
func (l Layout) Check() error {
	if fi, err := os.Stat(l.ResultsFile); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", l.ResultsFile)
	}
	for _, dir := range []string{filepath.Dir(l.ResultsFile), l.Dir} {
		if err := checkDir(dir); err != nil {
			return err
		}
	}
	return nil
}

// checkDir checks that dir is, or can be made as, a writable directory: its
// nearest existing ancestor must be a directory in which a file can be
// created.
func checkDir(dir string) error {
	d := filepath.Clean(dir)
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a directory", d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return err
		}
		d = parent
	}
	f, err := createNew(filepath.Join(d, ".lmeval-write-check"), "")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot create files in %s: %w", d, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// createNew creates a new file named prefix-RANDOM+suffix, mode 0666
// before the umask (os.CreateTemp's 0600 would outlive the rename).
func createNew(prefix, suffix string) (*os.File, error) {
	var b [6]byte
	for range 100 {
		rand.Read(b[:])
		f, err := os.OpenFile(prefix+"-"+hex.EncodeToString(b[:])+suffix, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("create %s: no free name", prefix)
}

// WriteResults writes v as the results file, atomically: a reader never
// sees half a file. Errors name the results file.
func (l Layout) WriteResults(v any) error {
	data, err := Marshal(v)
	if err != nil {
		return fmt.Errorf("results %s: %w", l.ResultsFile, err)
	}
	if err := WriteFileAtomic(l.ResultsFile, data); err != nil {
		return fmt.Errorf("results %s: %w", l.ResultsFile, err)
	}
	return nil
}

// WriteFallback saves v, when the results file could not be written, as
// a file of the results file's name in the system's temporary directory
// ($TMPDIR), and returns its path.
func (l Layout) WriteFallback(v any) (string, error) {
	data, err := Marshal(v)
	if err != nil {
		return "", err
	}
	base := strings.TrimSuffix(filepath.Base(l.ResultsFile), filepath.Ext(l.ResultsFile))
	f, err := createNew(filepath.Join(os.TempDir(), "lmeval-"+base), ".json")
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// WriteFileAtomic writes data to path through a new file in its
// directory (created if need be) renamed over it: a reader sees the old
// file or the new one, never half of one.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	tmp, err := createNew(filepath.Join(dir, "."+filepath.Base(path)), ".tmp")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// PartialSuffix ends the name of a samples file whose run has not
// completed (interrupted, failed, or still running): SamplesWriter.Commit
// renames it to the samples file once the run has succeeded, so a
// samples_*.jsonl file always holds a complete task.
const PartialSuffix = ".partial"

// SamplesWriter appends one JSON line per document to a task's samples
// file, named with PartialSuffix until Commit. Each Write reaches the
// operating system before it returns, so a killed process loses no
// completed document. Safe for concurrent use.
type SamplesWriter struct {
	mu    sync.Mutex
	f     *os.File
	w     *bufio.Writer
	path  string // the file being written (PartialSuffix until Commit)
	final string // the samples file
	// keys holds each written line's sort key while every sample has one;
	// Close then puts the lines in lm-eval's order. Lines are written as
	// documents complete so that a crash keeps them.
	keys     []sampleKey
	filters  map[string]int
	unsorted bool // a sample without SortKey: keep the written order
}

type sampleKey struct{ filter, doc int }

// sortable is implemented by samples with an lm-eval order (results.Sample).
type sortable interface {
	SortKey() (filter string, docID int)
}

// OpenSamples creates (or appends to) task's partial samples file: the
// samples file's name with PartialSuffix.
func (l Layout) OpenSamples(task string) (*SamplesWriter, error) {
	if err := os.MkdirAll(l.Dir, 0o777); err != nil {
		return nil, err
	}
	final := l.SamplesFile(task)
	p := final + PartialSuffix
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o666)
	if err != nil {
		return nil, fmt.Errorf("samples for %s: %w", task, err)
	}
	return &SamplesWriter{f: f, w: bufio.NewWriter(f), path: p, final: final}, nil
}

// Path is the file being written: the partial file until Commit, the
// samples file after.
func (s *SamplesWriter) Path() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.path
}

// Commit gives the closed file its final name (Layout.SamplesFile), once
// the run it belongs to has completed.
func (s *SamplesWriter) Commit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.path == s.final {
		return nil
	}
	if err := os.Rename(s.path, s.final); err != nil {
		return fmt.Errorf("samples %s: %w", s.final, err)
	}
	s.path = s.final
	return nil
}

// Write appends sample as one line of JSON (non-ASCII kept, no HTML
// escaping, as lm-eval writes samples).
func (s *SamplesWriter) Write(sample any) error {
	var buf bytes.Buffer
	if l, ok := sample.(interface{ JSONLine() []byte }); ok {
		// A results.Sample writes itself as lm-eval does; encoding/json
		// would compact its MarshalJSON output.
		buf.Write(l.JSONLine())
	} else {
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(sample); err != nil {
			return fmt.Errorf("samples %s: %w", s.path, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := sample.(sortable); ok && !s.unsorted {
		filter, doc := k.SortKey()
		if s.filters == nil {
			s.filters = map[string]int{}
		}
		rank, seen := s.filters[filter]
		if !seen {
			rank = len(s.filters)
			s.filters[filter] = rank
		}
		s.keys = append(s.keys, sampleKey{rank, doc})
	} else {
		s.unsorted = true
	}
	if _, err := s.w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("samples %s: %w", s.path, err)
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("samples %s: %w", s.path, err)
	}
	return nil
}

// Close flushes and closes the file, then rewrites it in lm-eval's order
// (by filter, then doc_id) when documents completed out of order.
func (s *SamplesWriter) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.w.Flush(); err != nil {
		s.f.Close()
		return err
	}
	if err := s.f.Close(); err != nil {
		return err
	}
	if s.unsorted || slices.IsSortedFunc(s.keys, cmpKey) {
		return nil
	}
	return s.sortFile()
}

func cmpKey(a, b sampleKey) int {
	if a.filter != b.filter {
		return a.filter - b.filter
	}
	return a.doc - b.doc
}

// sortFile rewrites the samples file with its lines ordered by key,
// through a temporary file so that the samples survive a crash midway.
func (s *SamplesWriter) sortFile() error {
	data, err := os.ReadFile(s.path)
	if err != nil {
		return fmt.Errorf("samples %s: %w", s.path, err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	if len(lines) != len(s.keys) {
		// Appended to an existing file: leave the order alone.
		return nil
	}
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpKey(s.keys[a], s.keys[b]) })
	var out bytes.Buffer
	for _, i := range order {
		out.Write(lines[i])
	}
	if err := WriteFileAtomic(s.path, out.Bytes()); err != nil {
		return fmt.Errorf("samples %s: %w", s.path, err)
	}
	return nil
}
