package compare

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/internal/output"
)

// Run is one evaluation read from disk: its results and, per task, the
// per-document samples.
type Run struct {
	// Path is the directory or file the run was named by; Label what
	// tables call it (the model name, else the path).
	Path, Label string
	// Files are the results files read (several when the run was split
	// into shards that each wrote their own).
	Files []string
	// Results merges the results files: per task, the newest file that
	// holds it.
	Results *results.Results
	// Tasks are the evaluated tasks (not groups) with their samples.
	Tasks map[string]*Task
	// TaskOrder lists the tasks in results order.
	TaskOrder []string
	// LMEval is lmeval's block of the newest results file (nil for
	// lm-eval's files).
	LMEval *results.LMEval
}

// Task is one task's samples in a run.
type Task struct {
	Name string
	File string // the samples file
	// Filters in the order they appear; Docs per filter, by doc_id.
	Filters []string
	Docs    map[string][]*results.Sample
}

// resultsPrefix and the extension name results files ("results_<date
// id>.json", as internal/output lays them out).
const resultsPrefix = "results_"

// Load reads a run from path: a results_*.json file (its samples files
// beside it), or a directory holding results files, or a directory whose
// single subdirectory holds them (lmeval run --output_path DIR puts the
// files under DIR/<model>/). A directory with several results files is
// a run split in parts (shards, or tasks added later): each task is taken
// from the newest file that has it. Every task needs its samples file
// (the run must have used --log_samples).
func Load(path string) (*Run, error) {
	files, err := resultsFiles(path)
	if err != nil {
		return nil, err
	}
	run := &Run{Path: path, Tasks: map[string]*Task{}, Results: results.New()}
	// Newest first: the first file holding a task wins.
	sort.Slice(files, func(i, j int) bool { return filepath.Base(files[i]) > filepath.Base(files[j]) })
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", path, err)
		}
		res, err := results.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("run %s: %s: %w", path, f, err)
		}
		used := false
		for _, name := range res.Results.Keys() {
			if seen[name] {
				continue
			}
			seen[name] = true
			used = true
			if err := run.add(f, res, name); err != nil {
				return nil, fmt.Errorf("run %s: %w", path, err)
			}
		}
		if used {
			if run.LMEval == nil {
				run.LMEval = res.LMEval
			}
			run.Files = append(run.Files, f)
			if run.Label == "" {
				run.Label = res.ModelName
			}
		}
	}
	if run.Label == "" {
		run.Label = path
	}
	slices.Reverse(run.Files)
	return run, nil
}

// add takes task or group name of the results file f into the run.
func (r *Run) add(f string, res *results.Results, name string) error {
	entry, _ := res.Results.Get(name)
	r.Results.Results.Set(name, entry)
	if subs, ok := res.GroupSubtasks.Get(name); ok {
		r.Results.GroupSubtasks.Set(name, subs)
	}
	if hib, ok := res.HigherIsBetter[name]; ok {
		r.Results.HigherIsBetter[name] = hib
	}
	if n, ok := res.NSamples.Get(name); ok {
		r.Results.NSamples.Set(name, n)
	}
	if v, ok := res.NShot[name]; ok {
		r.Results.NShot[name] = v
	}
	// Tasks are the names with document counts (n-samples); the rest are
	// groups.
	if _, isTask := res.NSamples.Get(name); !isTask {
		return nil
	}
	t, err := readTask(f, name)
	if err != nil {
		return err
	}
	r.Tasks[name] = t
	r.TaskOrder = append(r.TaskOrder, name)
	return nil
}

// readTask reads task's samples file beside the results file f.
func readTask(f, name string) (*Task, error) {
	layout := output.ReadLayout(f)
	p := layout.SamplesFile(name)
	if layout.DateID == "" {
		// A results file named by --output_path x.json: its samples carry
		// the run's date id, which its name does not; take the task's only
		// samples file in the directory.
		m, _ := filepath.Glob(filepath.Join(filepath.Dir(f), "samples_"+globEscape(name)+"_*.jsonl"))
		if len(m) != 1 {
			return nil, fmt.Errorf("task %s: %d samples files beside %s (want one)", name, len(m), f)
		}
		p = m[0]
	}
	fh, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		if _, perr := os.Stat(p + output.PartialSuffix); perr == nil {
			return nil, fmt.Errorf("task %s: %s is partial: the run did not finish", name, p+output.PartialSuffix)
		}
		return nil, fmt.Errorf("task %s: no samples file %s: the run needs --log_samples", name, p)
	}
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", name, err)
	}
	defer fh.Close()
	samples, err := results.ReadSamples(fh)
	if err != nil {
		return nil, fmt.Errorf("task %s: %s: %w", name, p, err)
	}
	t := &Task{Name: name, File: p, Docs: map[string][]*results.Sample{}}
	for _, s := range samples {
		if _, ok := t.Docs[s.Filter]; !ok {
			t.Filters = append(t.Filters, s.Filter)
		}
		t.Docs[s.Filter] = append(t.Docs[s.Filter], s)
	}
	for filter, docs := range t.Docs {
		sort.SliceStable(docs, func(i, j int) bool { return docs[i].DocID < docs[j].DocID })
		for i := 1; i < len(docs); i++ {
			if docs[i].DocID == docs[i-1].DocID {
				return nil, fmt.Errorf("task %s: %s: doc_id %d appears twice for filter %s", name, p, docs[i].DocID, filter)
			}
		}
	}
	return t, nil
}

func globEscape(s string) string {
	r := strings.NewReplacer(`[`, `\[`, `]`, `\]`, `*`, `\*`, `?`, `\?`)
	return r.Replace(s)
}

// resultsFiles finds the results files path names.
func resultsFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", path, err)
	}
	if !st.IsDir() {
		if !strings.HasSuffix(path, ".json") {
			return nil, fmt.Errorf("run %s: not a results .json file or a directory", path)
		}
		return []string{path}, nil
	}
	if f := resultsIn(path); len(f) > 0 {
		return f, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", path, err)
	}
	var dirs []string
	var found []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if f := resultsIn(filepath.Join(path, e.Name())); len(f) > 0 {
			dirs = append(dirs, e.Name())
			found = f
		}
	}
	switch len(dirs) {
	case 0:
		return nil, fmt.Errorf("run %s: no results_*.json in it or in its subdirectories", path)
	case 1:
		return found, nil
	}
	return nil, fmt.Errorf("run %s: holds runs of several models (%s): name one directory", path, strings.Join(dirs, ", "))
}

func resultsIn(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, resultsPrefix+"*.json"))
	return m
}

// SweepFile is the report a sweep writes into its output directory; a
// sweep run with --log_samples also writes each model's run there.
const SweepFile = "sweep.json"

// Expand replaces each sweep output directory in paths by the run
// directories of its models, the sweep's base first; other paths are
// kept.
func Expand(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		sf := filepath.Join(p, SweepFile)
		if st, err := os.Stat(sf); err != nil || st.IsDir() {
			out = append(out, p)
			continue
		}
		data, err := os.ReadFile(sf)
		if err != nil {
			return nil, err
		}
		var rep struct {
			Models []struct {
				Name   string `json:"name"`
				RunDir string `json:"run_dir"`
				IsBase bool   `json:"is_base"`
			} `json:"models"`
		}
		if err := json.Unmarshal(data, &rep); err != nil {
			return nil, fmt.Errorf("%s: %w", sf, err)
		}
		var dirs []string
		for _, m := range rep.Models {
			if m.RunDir == "" {
				continue
			}
			d := filepath.Join(p, m.RunDir)
			if m.IsBase {
				dirs = append([]string{d}, dirs...)
			} else {
				dirs = append(dirs, d)
			}
		}
		if len(dirs) == 0 {
			return nil, fmt.Errorf("%s: the sweep wrote no runs (run it with --tasks and --log_samples)", p)
		}
		out = append(out, dirs...)
	}
	return out, nil
}
