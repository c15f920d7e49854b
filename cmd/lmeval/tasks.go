package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/dataset"
	"github.com/lmeval/lmeval/harness/filters"
	"github.com/lmeval/lmeval/harness/metrics"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/hub"
	"github.com/lmeval/lmeval/internal/table"
)

// newRegistry indexes the built-in tasks, lm-eval's task tree when one of
// want is not built in (downloading it unless noDownload) or --tasks_source
// names one, then each include path (see harness.NewRegistry).
func newRegistry(c *cli.Context, want []string, noDownload bool) (*task.Registry, error) {
	opts := harness.RegistryOptions{
		Builtin:     benchmarks.FS(),
		Include:     c.StringSlice("include_path"),
		TasksSource: c.String("tasks_source"),
		Want:        want,
		NoDownload:  noDownload,
		CacheDir:    cache.DefaultPath("registry"),
	}
	d := progress.ForStderr(c.Bool("no_progress"))
	if d.Enabled() {
		opts.Tree.Progress = os.Stderr
	}
	var indexed func()
	opts.OnIndex, indexed = indexProgress(d)
	r, _, err := harness.NewRegistry(c.Context, opts)
	indexed()
	if err != nil {
		return nil, err
	}
	for _, w := range r.Warnings() {
		slog.Debug("task index", "warning", w)
	}
	return r, nil
}

// indexProgress counts the task files indexed on d (which happens only
// when a directory's index is not cached): the hook for
// RegistryOptions.OnIndex, and the function that ends the count.
func indexProgress(d *progress.Display) (onIndex func(string), done func()) {
	if !d.Enabled() {
		return nil, func() {}
	}
	var bar *progress.Phase
	return func(string) {
			if bar == nil {
				bar = d.Count("indexing task files", "files", 0)
			}
			bar.Add(1, 0)
		}, func() {
			if bar != nil {
				bar.Finish()
			}
		}
}

// terminalWidth is the width of w when it is a terminal, else 0.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

// tableWidth is the width ls fits its tables to: the terminal's, unless
// --wide or the output is not a terminal (0: every cell whole).
func tableWidth(c *cli.Context) int {
	if c.Bool("wide") {
		return 0
	}
	return terminalWidth(c.App.Writer)
}

// lsTasks lists the registry's names: "tasks" lists everything with its
// kind, the others one kind each. The RUNS column says whether lmeval can
// run the task or group, and why not (a Python helper with no native port,
// a Python class, a missing member); with available only those that can
// run are listed.
func lsTasks(c *cli.Context, what string, available bool) error {
	// Listing downloads nothing unless --tasks_source asks for a tree.
	r, err := newRegistry(c, nil, !c.IsSet("tasks_source"))
	if err != nil {
		return err
	}
	var names []string
	switch what {
	case "tasks":
		names = r.All()
	case "groups":
		names = r.Groups()
	case "subtasks":
		names = r.Tasks()
	case "tags":
		names = r.Tags()
	}
	parents, status := listing(r, progress.ForStderr(c.Bool("no_progress")))
	var lf *languageFilter
	if c.IsSet("language") {
		langs, none, err := parseLanguages("language", c.StringSlice("language"), true)
		if err != nil {
			return err
		}
		lf = &languageFilter{ix: languageIndex(r, parents), langs: langs, none: none}
	}
	cols := []table.Column{{Header: "NAME", Cut: table.Wrap}, {Header: "KIND"}}
	if lf != nil {
		cols = append(cols, table.Column{Header: "LANGUAGES", Cut: table.End, Min: 12})
	}
	cols = append(cols, table.Column{Header: "IN GROUPS/TAGS", Cut: table.End, Min: 14},
		table.Column{Header: "DEFINED IN", Cut: table.Middle, Min: 24}, table.Column{Header: "RUNS", Cut: table.End, Min: 12})
	tb := table.Table{Columns: cols}
	for _, n := range names {
		if lf != nil && !lf.keep(n) {
			continue
		}
		e, ok := r.Lookup(n)
		if !ok {
			continue
		}
		runs := status(n)
		if available && runs != "yes" {
			continue
		}
		where := harness.TaskFileLabel(e.File)
		if e.Kind == task.KindTag {
			where = fmt.Sprintf("%d tasks: %s", len(e.Tags), abbreviateList(e.Tags, 6))
		}
		in := "-"
		if p := parents[n]; len(p) > 0 {
			in = abbreviateList(p, 4)
		}
		if lf != nil {
			tb.Add(n, e.Kind.String(), lf.column(n), in, where, runs)
			continue
		}
		tb.Add(n, e.Kind.String(), in, where, runs)
	}
	return tb.Write(c.App.Writer, tableWidth(c))
}

// lsCache is what `ls` computes by loading every task and group: the
// groups and tags each name is in and whether it runs.
type lsCache struct {
	Parents map[string][]string `json:"parents"`
	Runs    map[string]string   `json:"runs"`
}

// listing gives memberOf's parents and runStatus's verdicts, from the
// registry cache when the registry's files and the program are those it
// was made from (task.Registry.Fingerprint), else computed and cached.
func listing(r *task.Registry, d *progress.Display) (map[string][]string, func(string) string) {
	var path string
	if fp := r.Fingerprint(); fp != "" {
		path = filepath.Join(r.CacheDir, "ls-"+fp[:32]+".json")
		if data, err := os.ReadFile(path); err == nil {
			var c lsCache
			if json.Unmarshal(data, &c) == nil && c.Runs != nil {
				return c.Parents, func(n string) string { return c.Runs[n] }
			}
		}
	}
	// Loading every group and task is the slow part of a listing: a
	// count of them on a terminal.
	bar := d.Count("checking tasks and groups", "names", len(r.Groups())+len(r.Tasks()))
	step := func(n int) { bar.Add(n, 0) }
	parents, groupErrs := memberOf(r, step)
	status := runStatus(r, groupErrs, step)
	bar.Finish()
	if path == "" {
		return parents, status
	}
	c := lsCache{Parents: parents, Runs: map[string]string{}}
	for _, n := range r.All() {
		c.Runs[n] = status(n)
	}
	if data, err := json.Marshal(c); err == nil {
		if err := writeFileAtomic(path, data); err != nil {
			slog.Debug("ls cache", "error", err)
		}
	}
	return parents, func(n string) string { return c.Runs[n] }
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory, so a reader never sees half a file.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return errors.Join(werr, cerr)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// runStatus says, per name, "yes" when lmeval can run it, else "no: "
// and the first reason. Every task is loaded once, together; groups use
// the errors memberOf met loading them; a tag runs when its tasks do.
func runStatus(r *task.Registry, groupErrs map[string]error, step func(int)) func(string) string {
	taskWhy := map[string]string{}
	// In chunks, for the progress count.
	for chunk := range slices.Chunk(r.Tasks(), 256) {
		_, err := r.Load(chunk)
		for _, e := range flattenErrors(err) {
			var ue *task.UnavailableError
			if errors.As(e, &ue) {
				taskWhy[ue.Task] = ue.Reason
			}
		}
		step(len(chunk))
	}
	reason := func(err error) string {
		errs := flattenErrors(err)
		var ue *task.UnavailableError
		var mm *task.MissingMembersError
		why := errs[0].Error()
		switch {
		case errors.As(errs[0], &ue):
			why = ue.Task + ": " + ue.Reason
		case errors.As(errs[0], &mm):
			why = fmt.Sprintf("%s: %d member(s) not found", mm.Group, len(mm.Missing))
		}
		if len(errs) > 1 {
			why += fmt.Sprintf(" (and %d more)", len(errs)-1)
		}
		return why
	}
	return func(name string) string {
		if why, ok := taskWhy[name]; ok {
			return "no: " + why
		}
		if err, ok := groupErrs[name]; ok {
			return "no: " + reason(err)
		}
		if e, ok := r.Lookup(name); ok && e.Kind == task.KindTag {
			for _, m := range e.Tags {
				if why, ok := taskWhy[m]; ok {
					return "no: " + m + ": " + why
				}
			}
		}
		return "yes"
	}
}

func flattenErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flattenErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// memberOf maps each task or group name to the groups that list it
// directly and the tags that include it, and returns the groups that do
// not load with their errors. Only groups are loaded (tasks
// stay unread), so listing stays fast; a group that cannot be loaded
// (a missing member, say) is skipped here and reported by validate.
func memberOf(r *task.Registry, step func(int)) (map[string][]string, map[string]error) {
	parents := map[string][]string{}
	groupErrs := map[string]error{}
	add := func(child, parent string) {
		if !slices.Contains(parents[child], parent) {
			parents[child] = append(parents[child], parent)
		}
	}
	for _, g := range r.Groups() {
		sel, err := r.Load([]string{g})
		step(1)
		if err != nil {
			groupErrs[g] = err
			continue
		}
		for _, grp := range sel.Groups() {
			for _, m := range grp.Members {
				switch {
				case m.Task != nil:
					add(m.Task.Name, grp.Name)
				case m.Group != nil:
					add(m.Group.Name, grp.Name)
				}
			}
		}
	}
	for _, t := range r.Tags() {
		if e, ok := r.Lookup(t); ok {
			for _, member := range e.Tags {
				add(member, t)
			}
		}
	}
	return parents, groupErrs
}

func abbreviateList(s []string, n int) string {
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:n], ", ") + ", ..."
}

// docLoader adapts the dataset package to the task layer. Datasets come
// from local files or the Hugging Face Hub cache (HF_HOME, HF_TOKEN,
// HF_ENDPOINT, HF_HUB_OFFLINE), downloading what is missing unless
// offline. With localOnly the Hub is never asked, and an error for data
// missing from the cache wraps task.ErrNotLocal.
func docLoader(ctx context.Context, localOnly bool) task.DocLoader {
	opts := dataset.Options{Offline: localOnly}
	if d := progress.FromContext(ctx); d.Enabled() {
		opts.Progress = os.Stderr
	}
	l := dataset.NewLoader(opts)
	return func(ctx context.Context, spec task.DatasetSpec, split string) ([]task.Doc, error) {
		docs, err := l.Load(ctx, dataset.Spec{Path: spec.Path, Name: spec.Name, Kwargs: spec.Kwargs}, split)
		if err != nil && errors.Is(err, hub.ErrOffline) {
			err = fmt.Errorf("%w: %w", task.ErrNotLocal, err)
		}
		return docs, err
	}
}

// taskFlags are the flags validate and write-out share with run.
func taskFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "tasks", Aliases: []string{"t"}, Usage: "tasks, groups, tags, wildcards or YAML paths, space or comma separated (NAME|SHOTS sets one task's shots)"},
		&cli.StringSliceFlag{Name: "include_path", Usage: "extra directory of task YAML; repeatable"},
		&cli.BoolFlag{Name: "no_progress", Usage: "no download progress bars"},
		tasksSourceFlag(),
	}
}

func tasksSourceFlag() cli.Flag {
	return &cli.StringFlag{Name: "tasks_source", Usage: "lm-eval task tree: a directory (checkout, or an installed lm_eval), an archive URL, REPO_URL@COMMIT, or none (default: $LMEVAL_TASKS_SOURCE, else lm-eval at the pinned commit, downloaded once when a task is not built in)"}
}

func specNames(specs []config.TaskSpec) []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return names
}

func taskSpecs(c *cli.Context) ([]config.TaskSpec, error) {
	specs, err := config.ParseTaskList(c.StringSlice("tasks")...)
	if err != nil {
		return nil, fmt.Errorf("--tasks: %w", err)
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("no tasks: give --tasks (see 'lmeval ls tasks')")
	}
	return specs, nil
}

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check tasks: YAML, includes, functions, templates, metrics, filters, and prompts on their first documents",
		UsageText: "lmeval validate --tasks TASK [TASK...] [--include_path DIR] [--num_docs N] [--no_docs] [--download]",
		Flags: append(taskFlags(),
			&cli.IntFlag{Name: "num_docs", Value: 3, Usage: "documents to build prompts for, per task (0: all)"},
			&cli.BoolFlag{Name: "no_docs", Usage: "do not load datasets: check configurations and templates only"},
			&cli.BoolFlag{Name: "download", Usage: "download datasets missing from the Hub cache (default: use only local data)"},
		),
		Action: func(c *cli.Context) error {
			specs, err := taskSpecs(c)
			if err != nil {
				return err
			}
			r, err := newRegistry(c, specNames(specs), false)
			if err != nil {
				return err
			}
			ctx := progress.NewContext(c.Context, progress.ForStderr(c.Bool("no_progress")))
			numDocs := c.Int("num_docs")
			if numDocs <= 0 {
				numDocs = -1 // every document
			}
			opts := task.ValidateOptions{
				NumDocs:     numDocs,
				MetricKnown: metrics.Known,
				FilterKnown: func(name string) bool { _, ok := filters.Lookup(name); return ok },
			}
			if !c.Bool("no_docs") {
				// Validation is a quick local check: it renders only
				// documents already on disk unless asked to download.
				opts.Loader = docLoader(ctx, !c.Bool("download"))
			}
			names := make([]string, len(specs))
			for i, s := range specs {
				names[i] = s.Name
			}
			nprob := 0
			for _, p := range task.Validate(ctx, r, names, opts) {
				if !p.Note {
					nprob++
				}
				fmt.Fprintln(c.App.Writer, p.String())
			}
			if nprob == 0 {
				fmt.Fprintf(c.App.Writer, "ok: %s\n", strings.Join(names, ", "))
				return nil
			}
			return cli.Exit(fmt.Sprintf("lmeval validate: %d problem(s)", nprob), 1)
		},
	}
}

func writeOutCommand() *cli.Command {
	return &cli.Command{
		Name:      "write-out",
		Usage:     "print the rendered prompts, targets and choices of tasks' first documents (lm-eval's write_out)",
		UsageText: "lmeval write-out --tasks TASK[|SHOTS] [TASK...] [--num_examples N] [--num_fewshot K] [--output_base_path DIR]",
		Flags: append(taskFlags(),
			&cli.IntFlag{Name: "num_examples", Value: 1, Usage: "documents per task (0: all)"},
			&cli.StringFlag{Name: "num_fewshot", Aliases: []string{"f"}, Usage: "few-shot examples per prompt (overrides the tasks' own)"},
			&cli.StringFlag{Name: "output_base_path", Usage: "write one file per task into this directory instead of stdout"},
			&cli.Int64Flag{Name: "seed", Value: task.DefaultFewshotSeed, Usage: "few-shot sampling seed"},
			&cli.StringFlag{Name: "system_instruction", Usage: "system message to add to every prompt"},
		),
		Action: func(c *cli.Context) error {
			specs, err := taskSpecs(c)
			if err != nil {
				return err
			}
			var shots *int
			if c.IsSet("num_fewshot") {
				n, err := strconv.Atoi(c.String("num_fewshot"))
				if err != nil || n < 0 {
					return fmt.Errorf("--num_fewshot: invalid value %q: want a non-negative integer", c.String("num_fewshot"))
				}
				shots = &n
			}
			r, err := newRegistry(c, specNames(specs), false)
			if err != nil {
				return err
			}
			ctx := progress.NewContext(c.Context, progress.ForStderr(c.Bool("no_progress")))
			loader := docLoader(ctx, false)
			seed := c.Int64("seed")
			var built []*task.Task
			for _, s := range specs {
				sel, err := r.Load([]string{s.Name})
				if err != nil {
					return err
				}
				n := shots
				if s.NumFewshot != nil {
					n = s.NumFewshot
				}
				for _, t := range sel.Tasks() {
					err := t.BuildRequests(ctx, task.BuildOptions{
						Loader:            loader,
						Limit:             float64(c.Int("num_examples")),
						NumFewshot:        n,
						FewshotSeed:       &seed,
						SystemInstruction: c.String("system_instruction"),
					})
					if err != nil {
						return err
					}
					built = append(built, t)
				}
			}
			if dir := c.String("output_base_path"); dir != "" {
				if err := task.WriteOutDir(dir, built, c.Int("num_examples")); err != nil {
					return err
				}
				fmt.Fprintf(c.App.Writer, "wrote %d task(s) to %s\n", len(built), dir)
				return nil
			}
			for _, t := range built {
				fmt.Fprintf(c.App.Writer, "=== %s (%d-shot) ===\n", t.Name, t.NumFewshot)
				if err := task.WriteOut(c.App.Writer, t, c.Int("num_examples")); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
