package task

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lmeval/lmeval/python/pyval"
)

// Group is a group of tasks (lm-eval's ConfigurableGroup): its members are
// tasks and nested groups, in the order the YAML lists them.
type Group struct {
	Name  string
	Alias string
	File  string
	// Aggregate is aggregate_metric_list; nil when the group reports no
	// aggregate of its own.
	Aggregate []AggMetric
	Metadata  map[string]any
	Members   []Member
}

// Member is one member of a group or of a selection: a task or a group.
type Member struct {
	Task  *Task
	Group *Group
}

// AggMetric is one entry of a group's aggregate_metric_list.
type AggMetric struct {
	Metric       string
	Aggregation  string   // "mean" unless set
	WeightBySize bool     // size-weighted (micro) mean when true, macro otherwise
	FilterList   []string // filters whose results are aggregated; ["none"] unless set
}

// DisplayName is the alias when set, else the name.
func (g *Group) DisplayName() string {
	if g.Alias != "" {
		return g.Alias
	}
	return g.Name
}

// Version is metadata.version, or nil.
func (g *Group) Version() any { return g.Metadata["version"] }

// AllTasks lists the group's tasks, descending into nested groups when
// recursive.
func (g *Group) AllTasks(recursive bool) []*Task {
	var out []*Task
	for _, m := range g.Members {
		if m.Task != nil {
			out = append(out, m.Task)
		} else if recursive {
			out = append(out, m.Group.AllTasks(true)...)
		}
	}
	return out
}

// Subgroups lists the nested groups, depth first when recursive.
func (g *Group) Subgroups(recursive bool) []*Group {
	var out []*Group
	for _, m := range g.Members {
		if m.Group != nil {
			out = append(out, m.Group)
			if recursive {
				out = append(out, m.Group.Subgroups(true)...)
			}
		}
	}
	return out
}

// Selection is what a list of --tasks names resolved to.
type Selection struct {
	Members []Member
}

// Tasks lists every task of the selection, depth first, in order.
func (s *Selection) Tasks() []*Task {
	var out []*Task
	for _, m := range s.Members {
		if m.Task != nil {
			out = append(out, m.Task)
		} else {
			out = append(out, m.Group.AllTasks(true)...)
		}
	}
	return out
}

// Groups lists every group of the selection, depth first.
func (s *Selection) Groups() []*Group {
	var out []*Group
	for _, m := range s.Members {
		if m.Group != nil {
			out = append(out, m.Group)
			out = append(out, m.Group.Subgroups(true)...)
		}
	}
	return out
}

// groupOnlyKeys define a group's structure; a group's other keys are
// defaults for its members' task configs.
var groupOnlyKeys = map[string]bool{
	"group": true, "group_alias": true, "task": true, "aggregate_metric_list": true,
	"metadata": true, "tag": true,
}

// Load resolves names (tasks, groups, tags, wildcards, YAML file paths)
// into tasks and groups with their configs; no documents are read. All
// problems are reported together: names not found, groups with missing
// members, tasks needing unavailable functions. On error the Selection
// still holds everything that loaded.
func (r *Registry) Load(names []string) (*Selection, error) {
	return r.load(names, nil)
}

// LoadWith loads one name with config overrides applied to it (to every
// task of a group or tag), as lm-eval's load accepts {task: name, key: value}.
func (r *Registry) LoadWith(name string, overrides map[string]any) (*Selection, error) {
	return r.load([]string{name}, overrides)
}

func (r *Registry) load(names []string, overrides map[string]any) (*Selection, error) {
	var es errs
	expanded, err := r.Match(names)
	es.add(err)
	sel := &Selection{}
	seen := map[string]bool{} // a task named twice (itself and by a tag) is evaluated once
	addTask := func(t *Task) {
		if !seen[t.Name] {
			seen[t.Name] = true
			sel.Members = append(sel.Members, Member{Task: t})
		}
	}
	for _, n := range expanded {
		e, ok := r.entries[n]
		if !ok {
			e, err = r.entryFromFile(n)
			if err != nil {
				es.add(err)
				continue
			}
		}
		switch e.Kind {
		case KindTag:
			for _, t := range e.Tags {
				task, err := r.buildTask(r.entries[t], overrides)
				if err != nil {
					es.add(err)
					continue
				}
				addTask(task)
			}
		case KindGroup:
			g, err := r.buildGroup(e, overrides, nil)
			es.add(err)
			if g != nil {
				sel.Members = append(sel.Members, Member{Group: g})
			}
		default:
			task, err := r.buildTask(e, overrides)
			if err != nil {
				es.add(err)
				continue
			}
			addTask(task)
		}
	}
	return sel, es.err()
}

// entryFromFile makes an entry for a YAML file named on the command line.
func (r *Registry) entryFromFile(p string) (*Entry, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	f := fileRef{abs: abs}
	cfg, err := loadYAML(f, nil)
	if err != nil {
		return nil, err
	}
	e := &Entry{File: abs, ref: f, listItem: -1}
	switch {
	case cfg["class"] != nil:
		e.Kind, e.Name = KindPythonTask, str(cfg["task"])
	case cfg["group"] != nil && !isString(cfg["task"]):
		e.Kind, e.Name = KindGroup, str(cfg["group"])
	case isString(cfg["task"]):
		e.Kind, e.Name = KindTask, str(cfg["task"])
	default:
		return nil, fmt.Errorf("%s: neither a task nor a group (no task or group key)", abs)
	}
	return e, nil
}

func isString(v any) bool { _, ok := v.(string); return ok }

func (r *Registry) buildTask(e *Entry, overrides map[string]any) (*Task, error) {
	cfg, err := loadYAML(e.ref, nil)
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", e.Name, err)
	}
	if e.Kind == KindPythonTask {
		// lm-eval's class ignores group and command-line overrides of
		// its config (classes.go).
		return r.classTask(e, cfg)
	}
	if e.listItem >= 0 {
		list, _ := cfg["task_list"].([]any)
		delete(cfg, "task_list")
		if e.listItem < len(list) {
			if m, ok := list[e.listItem].(map[string]any); ok {
				for k, v := range m {
					cfg[k] = v
				}
			}
		}
		cfg["task"] = e.Name
	}
	for k, v := range overrides {
		cfg[k] = pyval.DeepCopy(v)
	}
	delete(cfg, "group")
	delete(cfg, "group_alias")
	if _, ok := cfg["task"].(string); !ok {
		cfg["task"] = e.Name
	}
	return r.newTask(cfg, e.File)
}

func (r *Registry) newTask(cfg map[string]any, file string) (*Task, error) {
	name := str(cfg["task"])
	if len(r.Metadata) > 0 {
		md := metadataOf(cfg["metadata"])
		for k, v := range r.Metadata {
			md[k] = v
		}
		cfg["metadata"] = md
	}
	if reason := multimodal(cfg); reason != "" {
		return nil, &UnavailableError{Task: name, File: file, Reason: reason}
	}
	missing, stale, unavailable := map[string]bool{}, map[string]bool{}, map[string]string{}
	resolveFuncs(cfg, missing, stale, unavailable)
	resolveConditional(cfg, unavailable)
	for _, w := range sortedKeys(stale) {
		if !r.warned[w] {
			r.warned[w] = true
			r.warnings = append(r.warnings, w)
		}
	}
	if len(missing) > 0 || len(unavailable) > 0 {
		// The reasons of the helpers that cannot run (those sharing one
		// named together), then the functions with no port.
		var why []string
		byReason := map[string][]string{}
		for _, n := range pyval.SortedKeys(unavailable) {
			r := unavailable[n]
			if byReason[r] == nil {
				why = append(why, r)
			}
			byReason[r] = append(byReason[r], n)
		}
		for i, r := range why {
			why[i] = strings.Join(byReason[r], ", ") + ": " + r
		}
		m := sortedKeys(missing)
		undefined := map[string]string{}
		undefinedFuncs(cfg, undefined)
		var needs, broken []string
		for _, n := range m {
			if mod, ok := undefined[n]; ok {
				broken = append(broken, fmt.Sprintf("%s defines no %s", mod, n[strings.LastIndexByte(n, '.')+1:]))
			} else {
				needs = append(needs, n)
			}
		}
		if len(needs) > 0 {
			why = append(why, "needs Python function "+strings.Join(needs, ", "))
		}
		if len(broken) > 0 {
			why = append(why, "its `!function` names a function its Python file lacks ("+strings.Join(broken, "; ")+"), so lm-eval itself cannot load it (AttributeError)")
		}
		return nil, &UnavailableError{Task: name, File: file, Missing: m, Reason: strings.Join(why, "; ")}
	}
	c, warnings, err := parseConfig(cfg, file)
	r.warnings = append(r.warnings, warnings...)
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", name, err)
	}
	if c.Unsupported != "" {
		return nil, &UnavailableError{Task: name, File: file, Reason: c.Unsupported}
	}
	return newTask(c), nil
}

func parseAgg(v any) []AggMetric {
	var items []any
	switch x := v.(type) {
	case nil:
		return nil
	case map[string]any:
		items = []any{x}
	case []any:
		items = x
	}
	var out []AggMetric
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		a := AggMetric{Metric: str(m["metric"]), Aggregation: "mean", WeightBySize: toBool(m["weight_by_size"]), FilterList: []string{"none"}}
		if s := str(m["aggregation"]); s != "" {
			a.Aggregation = s
		}
		if fl := tagList(m["filter_list"]); len(fl) > 0 {
			a.FilterList = fl
		}
		out = append(out, a)
	}
	return out
}

func metadataOf(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		return m
	}
	if v == nil {
		return map[string]any{}
	}
	return map[string]any{"_metadata": v}
}

func (r *Registry) buildGroup(e *Entry, overrides map[string]any, stack []string) (*Group, error) {
	for _, s := range stack {
		if s == e.Name {
			return nil, fmt.Errorf("group %s (%s) contains itself: %s", e.Name, e.File, strings.Join(append(stack, e.Name), " -> "))
		}
	}
	stack = append(stack, e.Name)
	raw, err := loadYAML(e.ref, nil)
	if err != nil {
		return nil, fmt.Errorf("group %s: %w", e.Name, err)
	}
	g := &Group{
		Name:      e.Name,
		Alias:     str(raw["group_alias"]),
		File:      e.File,
		Aggregate: parseAgg(raw["aggregate_metric_list"]),
		Metadata:  r.withMeta(metadataOf(raw["metadata"])),
	}
	merged := map[string]any{}
	for k, v := range raw {
		if !groupOnlyKeys[k] {
			merged[k] = v
		}
	}
	for k, v := range overrides {
		merged[k] = v
	}
	var es errs
	r.buildMembers(g, raw["task"], merged, stack, &es)
	return g, es.err()
}

func (r *Registry) buildMembers(g *Group, list any, overrides map[string]any, stack []string, es *errs) {
	var items []any
	switch x := list.(type) {
	case []any:
		items = x
	case string:
		items = []any{x}
	}
	var missing []string
	for _, item := range items {
		var base string
		itemOv := overrides
		switch it := item.(type) {
		case string:
			base = it
		case map[string]any:
			if it["group"] != nil {
				sub := &Group{
					Name:      g.Name + "::" + str(it["group"]),
					Alias:     str(it["group_alias"]),
					File:      g.File,
					Aggregate: parseAgg(it["aggregate_metric_list"]),
					Metadata:  r.withMeta(metadataOf(it["metadata"])),
				}
				if e, ok := r.entries[str(it["group"])]; ok && e.Kind == KindGroup && it["task"] == nil {
					// A reference to a registered group, with overrides.
					ov := map[string]any{}
					for k, v := range overrides {
						ov[k] = v
					}
					for k, v := range it {
						if !groupOnlyKeys[k] {
							ov[k] = v
						}
					}
					ref, err := r.buildGroup(e, ov, stack)
					es.add(err)
					if ref != nil {
						g.Members = append(g.Members, Member{Group: ref})
					}
					continue
				}
				r.buildMembers(sub, it["task"], overrides, stack, es)
				g.Members = append(g.Members, Member{Group: sub})
				continue
			}
			base = str(it["task"])
			itemOv = map[string]any{}
			for k, v := range overrides {
				itemOv[k] = v
			}
			for k, v := range it {
				itemOv[k] = v
			}
		default:
			es.add(fmt.Errorf("group %s (%s): unsupported member %v", g.Name, g.File, item))
			continue
		}
		e, ok := r.entries[base]
		if !ok {
			if _, isStr := item.(string); isStr {
				missing = append(missing, base)
				continue
			}
			// An inline task defined in the group file.
			cfg := pyval.DeepCopy(itemOv).(map[string]any)
			cfg["task"] = g.Name + "::" + base
			t, err := r.newTask(cfg, g.File)
			if err != nil {
				es.add(err)
				continue
			}
			g.Members = append(g.Members, Member{Task: t})
			continue
		}
		switch e.Kind {
		case KindGroup:
			sub, err := r.buildGroup(e, itemOv, stack)
			es.add(err)
			if sub != nil {
				g.Members = append(g.Members, Member{Group: sub})
			}
		case KindTag:
			for _, name := range e.Tags {
				t, err := r.buildTask(r.entries[name], itemOv)
				if err != nil {
					es.add(err)
					continue
				}
				g.Members = append(g.Members, Member{Task: t})
			}
		default:
			t, err := r.buildTask(e, itemOv)
			if err != nil {
				es.add(err)
				continue
			}
			g.Members = append(g.Members, Member{Task: t})
		}
	}
	if len(missing) > 0 {
		es.add(&MissingMembersError{Group: g.Name, File: g.File, Missing: missing})
	}
}

func (r *Registry) withMeta(md map[string]any) map[string]any {
	for k, v := range r.Metadata {
		md[k] = v
	}
	return md
}

// multimodal says why a task that feeds the model images or audio
// (doc_to_image, doc_to_audio) cannot run, "" for a text task.
func multimodal(cfg map[string]any) string {
	var kinds []string
	if cfg["doc_to_image"] != nil {
		kinds = append(kinds, "images")
	}
	if cfg["doc_to_audio"] != nil {
		kinds = append(kinds, "audio")
	}
	if len(kinds) == 0 {
		return ""
	}
	return "multimodal (" + strings.Join(kinds, " and ") + "): lmeval evaluates text-only models"
}
