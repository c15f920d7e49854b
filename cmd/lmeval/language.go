package main

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/harness/config"
	"github.com/lmeval/lmeval/harness/language"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/harness/results"
	"github.com/lmeval/lmeval/harness/task"
)

// languageIndex is the language index of r, groups included: parents is
// the ls listing's map of each name to the groups and tags it is in.
func languageIndex(r *task.Registry, parents map[string][]string) *language.Index {
	ix := language.NewIndex(r)
	members := map[string][]string{}
	for child, ps := range parents {
		for _, p := range ps {
			if e, ok := r.Lookup(p); ok && e.Kind == task.KindGroup {
				members[p] = append(members[p], child)
			}
		}
	}
	ix.AddGroups(members)
	return ix
}

// parseLanguages reads --language values: codes or English names,
// comma- or space-separated; "none" (for ls) asks for the tasks with no
// language.
func parseLanguages(flag string, vals []string, allowNone bool) (langs []language.Lang, none bool, err error) {
	for _, v := range vals {
		for _, s := range task.SplitNames(v) {
			if allowNone && strings.EqualFold(s, "none") {
				none = true
				continue
			}
			l, err := language.Parse(s)
			if err != nil {
				return nil, false, fmt.Errorf("--%s: %w", flag, err)
			}
			langs = append(langs, l)
		}
	}
	return langs, none, nil
}

// langsString is "hin_Deva, eng_Latn".
func langsString(ls []language.Lang) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = l.String()
	}
	return strings.Join(s, ", ")
}

// langTitle is "Hindi (hin)" or "Hindi (hin_Latn)".
func langTitle(l language.Lang) string {
	return fmt.Sprintf("%s (%s)", language.Name(l.Code), l)
}

// lsLanguages prints every language of the registry with its tasks,
// groups and tags, and what share of the tasks has a language; with
// --preset or --tasks, what a run with --language would evaluate.
func lsLanguages(c *cli.Context) error {
	if c.IsSet("preset") || c.IsSet("tasks") {
		return lsLanguagePlan(c)
	}
	r, err := newRegistry(c, nil, !c.IsSet("tasks_source"))
	if err != nil {
		return err
	}
	parents, _ := listing(r, progress.ForStderr(c.Bool("no_progress")))
	ix := languageIndex(r, parents)
	bw := bufio.NewWriter(c.App.Writer)
	writeLanguages(bw, r, ix)
	return bw.Flush()
}

// lsLanguagePlan prints, per language and suite, the tasks and groups a
// run of the suites (--tasks, or --preset's) in --language's languages
// (or the preset's) evaluates, as run plans them.
func lsLanguagePlan(c *cli.Context) error {
	var specs []config.TaskSpec
	var langVals []string
	if name := c.String("preset"); name != "" {
		ps, err := config.Presets(c.StringSlice("include_path"))
		if err != nil {
			return err
		}
		found := false
		for _, p := range ps {
			if p.Name != name {
				continue
			}
			cfg, err := config.Resolve(p.Layer())
			if err != nil {
				return err
			}
			specs, langVals, found = cfg.Tasks, cfg.Languages, true
		}
		if !found {
			return fmt.Errorf("--preset %s: no such preset (see 'lmeval ls presets')", name)
		}
	}
	if c.IsSet("tasks") {
		var err error
		if specs, err = taskSpecs(c); err != nil {
			return err
		}
	}
	if c.IsSet("language") {
		langVals = c.StringSlice("language")
	}
	if len(langVals) == 0 {
		return fmt.Errorf("ls languages --tasks/--preset: give --language (the preset names none)")
	}
	langs, _, err := parseLanguages("language", langVals, false)
	if err != nil {
		return err
	}
	r, err := newRegistry(c, specNames(specs), false)
	if err != nil {
		return err
	}
	p, err := planLanguages(r, language.NewIndex(r), specs, langs)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LANGUAGE\tSUITE\tRUNS")
	for i, l := range langs {
		for _, s := range p.suites {
			runs := strings.Join(p.kept[i][s], " ")
			if runs == "" {
				runs = "- (none)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", langTitle(l), s, runs)
		}
	}
	return tw.Flush()
}

func writeLanguages(w io.Writer, r *task.Registry, ix *language.Index) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LANGUAGE\tNAME\tSCRIPTS\tTASKS\tGROUPS\tTAGS\tFAMILIES")
	counts := ix.Counts()
	for _, c := range counts {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\n", c.Lang.Code, language.Name(c.Lang.Code), strings.Join(c.Scripts, ","),
			c.Tasks, c.Groups, c.Tags, abbreviateList(c.Families, 5))
	}
	tw.Flush()
	tasks := r.Tasks()
	with := 0
	for _, t := range tasks {
		if len(ix.Of(t)) > 0 {
			with++
		}
	}
	share := 0.0
	if len(tasks) > 0 {
		share = 100 * float64(with) / float64(len(tasks))
	}
	fmt.Fprintf(w, "\n%d languages; %d of %d tasks have one (%.1f%%); the %d others: lmeval ls tasks --language none\n",
		len(counts), with, len(tasks), share, len(tasks)-with)
}

// languageFilter keeps the names in one of langs (or with no language,
// for none) and says each name's languages and where they come from.
type languageFilter struct {
	ix    *language.Index
	langs []language.Lang
	none  bool
}

func (f *languageFilter) keep(name string) bool {
	ls := f.ix.Of(name)
	if f.none && len(ls) == 0 {
		return true
	}
	for _, want := range f.langs {
		if f.ix.In(name, want) {
			return true
		}
	}
	return false
}

// column is the LANGUAGES cell of a name: its languages and their source.
func (f *languageFilter) column(name string) string {
	ls := f.ix.Of(name)
	if len(ls) == 0 {
		return "-"
	}
	return fmt.Sprintf("%s (%s)", langsString(ls), f.ix.From(name))
}

// langPlan is what --language makes of a run's tasks: per language, the
// tasks and groups of each --tasks suite in it; the suites with none.
type langPlan struct {
	langs []language.Lang
	// kept[i][suite] are the names run for langs[i] from that --tasks
	// entry, in order.
	kept []map[string][]string
	// suites are the --tasks names, in order.
	suites []string
	// missing are "SUITE: no task in LANGUAGE" lines.
	missing []string
	specs   []config.TaskSpec
}

// planLanguages keeps, of each --tasks entry, the parts in one of langs:
// a task in it; a tag's tasks in it; a group whole when all its tasks are
// in it, else its members so chosen, recursively. Groups are loaded (as
// the run loads them) to see their members; tasks are judged by the
// index, or, defined inline in a group file, by what their names and
// dataset_name say.
func planLanguages(r *task.Registry, ix *language.Index, specs []config.TaskSpec, langs []language.Lang) (*langPlan, error) {
	p := &langPlan{langs: langs, kept: make([]map[string][]string, len(langs))}
	for i := range p.kept {
		p.kept[i] = map[string][]string{}
	}
	seen := map[string]bool{}
	taskIn := func(t *task.Task, want language.Lang) bool {
		for _, l := range ix.OfTask(t.Name, t.Config.DatasetName, t.Config.File) {
			if l.Matches(want) {
				return true
			}
		}
		return false
	}
	var inline []string
	var walk func(g *task.Group, want language.Lang) []string
	walk = func(g *task.Group, want language.Lang) []string {
		all := g.AllTasks(true)
		n := 0
		for _, t := range all {
			if taskIn(t, want) {
				n++
			}
		}
		if n == 0 {
			return nil
		}
		if _, reg := r.Lookup(g.Name); n == len(all) && reg {
			return []string{g.Name}
		}
		var out []string
		for _, m := range g.Members {
			switch {
			case m.Group != nil:
				out = append(out, walk(m.Group, want)...)
			case !taskIn(m.Task, want):
			case isRegistered(r, m.Task.Name):
				out = append(out, m.Task.Name)
			default:
				inline = append(inline, m.Task.Name)
			}
		}
		return out
	}
	for _, s := range specs {
		names, err := r.Match([]string{s.Name})
		if err != nil {
			return nil, fmt.Errorf("--tasks: %w", err)
		}
		p.suites = append(p.suites, s.Name)
		for i, want := range langs {
			var got []string
			for _, n := range names {
				e, ok := r.Lookup(n)
				switch {
				case !ok || e.Kind == task.KindTask || e.Kind == task.KindPythonTask:
					if ix.In(n, want) {
						got = append(got, n)
					} else if !ok {
						// A YAML path: judge the task it defines.
						if sel, err := r.Load([]string{n}); err == nil {
							for _, t := range sel.Tasks() {
								if taskIn(t, want) {
									got = append(got, n)
									break
								}
							}
						}
					}
				case e.Kind == task.KindTag:
					for _, m := range e.Tags {
						if ix.In(m, want) {
							got = append(got, m)
						}
					}
				case e.Kind == task.KindGroup:
					sel, err := r.Load([]string{n})
					if err != nil {
						return nil, err
					}
					for _, g := range sel.Members {
						if g.Group != nil {
							got = append(got, walk(g.Group, want)...)
						}
					}
				}
			}
			if len(got) == 0 {
				p.missing = append(p.missing, fmt.Sprintf("%s: no task in %s", s.Name, langTitle(want)))
				continue
			}
			p.kept[i][s.Name] = got
			for _, n := range got {
				if !seen[n] {
					seen[n] = true
					spec := s
					spec.Name = n
					p.specs = append(p.specs, spec)
				}
			}
		}
	}
	if len(inline) > 0 {
		slog.Warn("--language: tasks defined inside a group file cannot be run apart from their group; left out", "tasks", strings.Join(inline, ", "))
	}
	if len(p.specs) == 0 {
		return nil, fmt.Errorf("--language %s: none of the tasks is in these languages:\n  %s", langsString(langs), strings.Join(p.missing, "\n  "))
	}
	return p, nil
}

// applyLanguages replaces cfg's tasks by their parts in --language's
// languages and says on stderr which suites have none.
func applyLanguages(c *cli.Context, cfg *config.Config, r *task.Registry) (*langPlan, error) {
	langs, _, err := parseLanguages("language", cfg.Languages, false)
	if err != nil {
		return nil, err
	}
	p, err := planLanguages(r, language.NewIndex(r), cfg.Tasks, langs)
	if err != nil {
		return nil, err
	}
	for _, m := range p.missing {
		fmt.Fprintf(c.App.ErrWriter, "lmeval: --language: %s\n", m)
	}
	for i, l := range langs {
		var names []string
		for _, s := range p.suites {
			names = append(names, p.kept[i][s]...)
		}
		slog.Info("--language", "language", langTitle(l), "runs", strings.Join(names, " "))
	}
	cfg.Tasks = p.specs
	return p, nil
}

func isRegistered(r *task.Registry, name string) bool {
	_, ok := r.Lookup(name)
	return ok
}

// report prints, with one language, the usual tables; with several, for
// each language its results tables (the names kept for it and their
// subtasks), then a summary: one row per language, one
// column per --tasks suite, each cell the first metric of what ran for
// that suite in that language (the mean when several tasks or groups
// ran, marked with their count).
func (p *langPlan) report(w io.Writer, res *results.Results) {
	if len(p.langs) == 1 {
		// One language: the usual tables, and what has none in it.
		fmt.Fprint(w, res.Tables())
		for _, m := range p.missing {
			fmt.Fprintf(w, "- %s\n", m)
		}
		return
	}
	for i, l := range p.langs {
		keep := map[string]bool{}
		var add func(n string)
		add = func(n string) {
			if keep[n] {
				return
			}
			keep[n] = true
			if subs, ok := res.GroupSubtasks.Get(n); ok {
				for _, s := range subs {
					add(s)
				}
			}
		}
		for _, s := range p.suites {
			for _, n := range p.kept[i][s] {
				add(n)
			}
		}
		if len(keep) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n## %s\n\n", langTitle(l))
		fmt.Fprint(w, res.Subset(func(n string) bool { return keep[n] }).Tables())
	}
	fmt.Fprintf(w, "\n## Summary by language\n\n")
	headers := append([]string{"Language"}, p.suites...)
	rows := [][]string{}
	for i, l := range p.langs {
		row := []string{langTitle(l)}
		for _, s := range p.suites {
			row = append(row, summaryCell(res, p.kept[i][s]))
		}
		rows = append(rows, row)
	}
	fmt.Fprint(w, markdownGrid(headers, rows))
	for _, m := range p.missing {
		fmt.Fprintf(w, "- %s\n", m)
	}
}

// summaryCell is "acc 0.4512", or "acc 0.4512 (mean of 3)", or "-".
func summaryCell(res *results.Results, names []string) string {
	var metric string
	var sum float64
	n := 0
	for _, name := range names {
		var e *results.Entry
		ok := false
		if res.Groups != nil {
			e, ok = res.Groups.Get(name)
		}
		if !ok || e == nil {
			e, ok = res.Results.Get(name)
		}
		if !ok || e == nil {
			continue
		}
		m, v, ok := results.FirstMetric(e)
		if !ok || (metric != "" && m != metric) {
			continue
		}
		metric = m
		sum += v
		n++
	}
	switch n {
	case 0:
		return "-"
	case 1:
		return fmt.Sprintf("%s %.4f", metric, sum)
	}
	return fmt.Sprintf("%s %.4f (mean of %d)", metric, sum/float64(n), n)
}

// markdownGrid lays out a plain markdown table.
func markdownGrid(headers []string, rows [][]string) string {
	width := make([]int, len(headers))
	for i, h := range headers {
		width[i] = len([]rune(h))
	}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var sb strings.Builder
	line := func(cells []string) {
		sb.WriteString("|")
		for i, c := range cells {
			sb.WriteString(" " + c + strings.Repeat(" ", width[i]-len([]rune(c))) + " |")
		}
		sb.WriteString("\n")
	}
	line(headers)
	sep := make([]string, len(headers))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
	return sb.String()
}
