package harness

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/harness/dataset"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/hub"
)

// warnShadowed says which of the run's tasks come from an include path
// that replaced a definition of the same name (a wrapper named like a
// built-in task): one warning per task, or one for all when there are
// many (an include path holding lm-eval's whole tree).
func (p *Plan) warnShadowed() {
	var include []string
	for _, d := range p.cfg.IncludePaths {
		if abs, err := filepath.Abs(d); err == nil {
			include = append(include, abs)
		}
	}
	var lines []string
	for _, tr := range p.runs {
		old := p.opts.registry.Shadowed(tr.t.Name)
		e, ok := p.opts.registry.Lookup(tr.t.Name)
		if len(old) == 0 || !ok || !slices.ContainsFunc(include, func(d string) bool { return strings.HasPrefix(e.File, d+string(filepath.Separator)) }) {
			continue
		}
		lines = append(lines, fmt.Sprintf("Duplicate task name %q: %s overrides %s", tr.t.Name, TaskFileLabel(e.File), TaskFileLabel(old[len(old)-1])))
	}
	if len(lines) <= 3 {
		for _, l := range lines {
			slog.Warn(l)
		}
		return
	}
	slog.Warn(fmt.Sprintf("%d tasks of the include paths override others of the same name", len(lines)), "first", lines[0])
}

// applyDataFiles points the tasks named in --data_files at their local
// files: their dataset becomes the files' format with data_files.
func (p *Plan) applyDataFiles() error {
	if len(p.cfg.DataFiles) == 0 {
		return nil
	}
	byName := map[string]*taskRun{}
	for _, tr := range p.runs {
		byName[tr.t.Name] = tr
	}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(p.cfg.DataFiles)) {
		tr := byName[name]
		if tr == nil {
			names := slices.Sorted(maps.Keys(byName))
			errs = append(errs, fmt.Errorf("--data_files: task %s is not evaluated in this run (tasks: %s)", name, abbreviate(names, 10)))
			continue
		}
		if err := useLocalFiles(tr.t, p.cfg.DataFiles[name]); err != nil {
			errs = append(errs, fmt.Errorf("--data_files: task %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

func abbreviate(s []string, n int) string {
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:n], ", ") + fmt.Sprintf(", ... (%d in all)", len(s))
}

// useLocalFiles makes t read its splits from files (split "" is the one
// it evaluates): dataset_path becomes their format's builder and
// dataset_kwargs their data_files, also in the configuration the results
// record.
func useLocalFiles(t *task.Task, files map[string][]string) error {
	c := t.Config
	if c.CustomDataset != nil {
		return fmt.Errorf("its documents come from custom_dataset %s, which local files cannot replace", c.CustomDataset.Name)
	}
	eval := c.TestSplit
	if eval == "" {
		eval = c.ValidationSplit
	}
	builder := ""
	dataFiles := map[string]any{}
	for _, split := range slices.Sorted(maps.Keys(files)) {
		name := split
		if name == "" {
			if eval == "" {
				return errors.New("it has no test_split or validation_split to give files for: name the split (TASK:SPLIT=PATH)")
			}
			name = eval
		}
		var list []any
		for _, p := range files[split] {
			abs, err := filepath.Abs(p)
			if err != nil {
				return err
			}
			matches, err := filepath.Glob(abs)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			if len(matches) == 0 {
				return fmt.Errorf("split %s: no file matches %s", name, abs)
			}
			for _, m := range matches {
				if st, err := os.Stat(m); err != nil {
					return err
				} else if st.IsDir() {
					return fmt.Errorf("split %s: %s is a directory: give its files, or a glob such as %s", name, m, filepath.Join(m, "*.parquet"))
				}
				b := dataset.Builder(m)
				if b == "" {
					return fmt.Errorf("split %s: %s is not a data file lmeval can read (json, jsonl, csv, tsv, parquet, txt)", name, m)
				}
				if builder != "" && b != builder {
					return fmt.Errorf("split %s: %s is %s, other files are %s: give files of one format", name, m, b, builder)
				}
				builder = b
			}
			list = append(list, abs)
		}
		dataFiles[name] = list
	}
	kwargs := map[string]any{"data_files": dataFiles}
	c.DatasetPath, c.DatasetName, c.DatasetKwargs = builder, "", kwargs
	if c.Raw != nil {
		c.Raw["dataset_path"] = builder
		c.Raw["dataset_name"] = nil
		c.Raw["dataset_kwargs"] = kwargs
	}
	return nil
}

// loadData loads the splits every task's Build will read, with the
// loader Build will use (it keeps what it read), so that a dataset that
// cannot be had stops the run before a model loads.
func (p *Plan) loadData(ctx context.Context) error {
	p.ensureLoader(ctx)
	type job struct {
		tr    *taskRun
		split string
	}
	var jobs []job
	for _, tr := range p.runs {
		n := p.cfg.NumFewshot
		if tr.spec.NumFewshot != nil {
			n = tr.spec.NumFewshot
		}
		for _, s := range tr.t.DataSplits(n) {
			jobs = append(jobs, job{tr, s})
		}
	}
	errs := make([]error, len(jobs))
	sem := make(chan struct{}, buildWorkers)
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			c := j.tr.t.Config
			spec := task.DatasetSpec{Path: c.DatasetPath, Name: c.DatasetName, Kwargs: c.DatasetKwargs}
			if _, err := p.opts.loader(ctx, spec, j.split); err != nil {
				errs[i] = dataError(j.tr.t, j.split, err)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// ensureLoader makes the default document loader unless one was given.
func (p *Plan) ensureLoader(ctx context.Context) {
	if p.opts.loader != nil {
		return
	}
	dopts := dataset.Options{}
	if progress.FromContext(ctx).Enabled() {
		dopts.Progress = os.Stderr
	}
	p.opts.loader, p.opts.columns = DatasetLoader(dopts)
}

// dataError says which task and split could not be loaded and, when the
// Hub could not be reached or offline mode found nothing cached, what to
// do about it.
func dataError(t *task.Task, split string, err error) error {
	err = fmt.Errorf("task %s: split %s: %w", t.Name, split, err)
	if errors.Is(err, context.Canceled) {
		return err
	}
	missing := "lmeval cannot reach the Hugging Face Hub"
	switch {
	case errors.Is(err, hub.ErrOffline):
		missing = "offline mode is on (HF_HUB_OFFLINE=1)"
	case hub.Unreachable(err):
	default:
		if errors.Is(err, dataset.ErrNoSplit) {
			return fmt.Errorf("%w\n  give a file for it with --data_files %s:%s=PATH", err, t.Name, split)
		}
		return err
	}
	cacheDir := hub.New(hub.Options{}).CacheDir()
	return fmt.Errorf("%w\n  the dataset is not in the Hugging Face cache (%s) and %s. Either:\n"+
		"  - fill the cache where the Hub is reachable (a run there, or `lmeval pack` there and `lmeval unpack` here), then run here with HF_HUB_OFFLINE=1;\n"+
		"  - or read the split from local files: --data_files %s:%s=PATH (docs/datasets.md)", err, cacheDir, missing, t.Name, split)
}
