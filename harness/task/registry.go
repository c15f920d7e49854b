package task

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Kind says what a registry name stands for.
type Kind int

const (
	KindTask       Kind = iota + 1 // a YAML task
	KindGroup                      // a group of tasks, tags and groups
	KindTag                        // a set of tasks sharing a `tag`
	KindPythonTask                 // a task implemented by a Python class (runs when a native port of the class is registered)
)

func (k Kind) String() string {
	switch k {
	case KindTask:
		return "task"
	case KindGroup:
		return "group"
	case KindTag:
		return "tag"
	case KindPythonTask:
		return "python task"
	}
	return "unknown"
}

// Entry is one indexed name.
type Entry struct {
	Name string
	Kind Kind
	// File is the YAML file defining a task or group; "" for tags.
	File string
	// Tags are a task's tags; for a tag, its member tasks in index order.
	Tags []string
	// Dataset is a task's dataset_name, includes merged ("" when unset or
	// not a string); the language index reads it.
	Dataset string

	ref      fileRef
	listItem int // index in task_list, or -1
}

// Registry indexes task YAML from any number of trees (the built-in tasks,
// --include_path directories) by their top-level task/group/tag keys; the
// files are read in full only when a task is loaded. Later trees take
// precedence over earlier ones for the same name. A Registry is not safe
// for concurrent modification.
type Registry struct {
	// Metadata is merged into every loaded task's and group's metadata
	// (lm-eval's --metadata), overriding their own keys.
	Metadata map[string]any
	// CacheDir, when set, holds index caches of AddDir's directories.
	CacheDir string
	// OnIndex, when set, is called for each YAML file read to index a
	// directory (not the built-in tree, nor a directory whose index comes
	// from the cache): for progress.
	OnIndex func(path string)

	stamps    []string // each cached AddDir directory with its TreeStamp
	unstamped bool     // a directory could not be stamped

	entries  map[string]*Entry
	sources  []*source
	warnings []string
	warned   map[string]bool     // stale-port warnings already given
	broken   []brokenFile        // files the index skipped, for Match's error
	shadowed map[string][]string // task name -> the files of the definitions it replaced
}

// Shadowed lists the files of the earlier definitions of task name that
// a later tree replaced (an include path's task named like a built-in
// one), earliest first.
func (r *Registry) Shadowed(name string) []string { return r.shadowed[name] }

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{entries: map[string]*Entry{}, warned: map[string]bool{}}
}

// Warnings are problems met while indexing (duplicate names, unreadable
// files) and loading (unknown config keys).
func (r *Registry) Warnings() []string { return r.warnings }

func (r *Registry) warnf(format string, args ...any) {
	r.warnings = append(r.warnings, fmt.Sprintf(format, args...))
}

// AddFS indexes every *.yaml file under fsys. name qualifies file names in
// messages and is the directory `!function` lookups see; use "" for the
// built-in task tree.
func (r *Registry) AddFS(name string, fsys fs.FS) error {
	return r.addFS(name, fsys, "", nil)
}

// AddFSFiltered is AddFS indexing only the tasks and groups whose names
// keep accepts (all when keep is nil); tags follow their tasks.
func (r *Registry) AddFSFiltered(name string, fsys fs.FS, keep func(name string) bool) error {
	return r.addFS(name, fsys, "", keep)
}

// addFS indexes fsys (keeping what keep accepts); with a cachePath it
// reads the index from there when that file is up to date and writes it
// there otherwise.
func (r *Registry) addFS(name string, fsys fs.FS, cachePath string, keep func(name string) bool) error {
	src := &source{name: name, fsys: fsys, keep: keep}
	r.sources = append(r.sources, src)
	if cachePath != "" {
		if recs := loadIndexCache(cachePath, name); recs != nil {
			r.replay(src, recs)
			return nil
		}
	}
	ix := newIndexer()
	var recs []indexRecord
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("index %s: %w", src.display(p), err)
		}
		if d.IsDir() {
			if n := d.Name(); n == "__pycache__" || n == ".ipynb_checkpoints" {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".yaml") {
			return nil
		}
		if r.OnIndex != nil && src.name != "" {
			r.OnIndex(src.display(p))
		}
		rec := indexRecord{Path: p}
		if data, err := fs.ReadFile(fsys, p); err != nil {
			rec.Warn = fmt.Sprintf("%s: %v", src.display(p), err)
		} else if cfg, err := ix.config(fileRef{src: src, path: p}, data, nil); err != nil {
			rec.Warn = fmt.Sprintf("%s: skipped: %v", src.display(p), err)
			rec.Names, rec.Err = declaredNames(data, p), err.Error()
		} else {
			rec.Cfg = indexView(cfg)
		}
		recs = append(recs, rec)
		r.replay(src, recs[len(recs)-1:])
		return nil
	})
	if err == nil && cachePath != "" {
		saveIndexCache(cachePath, name, recs, ix.outsideFiles())
	}
	return err
}

// AddDir indexes the YAML under an OS directory (an --include_path). With
// CacheDir set, the index is cached there, keyed by the directory's files
// (paths, sizes, modification times) and the running program.
func (r *Registry) AddDir(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("include path: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("include path %s: not a directory", abs)
	}
	cachePath := ""
	if r.CacheDir != "" {
		if stamp, err := TreeStamp(abs); err == nil {
			r.stamps = append(r.stamps, abs+"\x00"+stamp)
			cachePath = r.indexCachePath(abs, stamp)
		} else {
			r.unstamped = true
		}
	}
	return r.addFS(abs, os.DirFS(abs), cachePath, nil)
}

// indexKeys are the top-level keys the index needs; include is among them
// because lm-eval indexes each file with its includes merged in, and
// dataset_name because the language index reads it (a language's code,
// often).
var indexKeys = map[string]bool{"task": true, "group": true, "tag": true, "class": true, "task_list": true, "include": true, "dataset_name": true}

// scanTopLevel extracts the YAML text of the top-level keys the index
// needs, so most files are never parsed in full. ok is false when the file
// is not plain block-mapping YAML, and the caller parses it all.
func scanTopLevel(data []byte) (out []byte, ok bool) {
	keep := false
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		t := bytes.TrimRight(line, "\r\n")
		if len(t) == 0 || t[0] == ' ' || t[0] == '\t' || t[0] == '#' || t[0] == '-' {
			if keep {
				out = append(out, line...)
			}
			continue
		}
		if bytes.HasPrefix(t, []byte("---")) || t[0] == '{' || t[0] == '[' || t[0] == '%' || t[0] == '?' {
			return nil, false
		}
		k, _, found := bytes.Cut(t, []byte(":"))
		if !found {
			return nil, false
		}
		key := string(bytes.Trim(bytes.TrimSpace(k), `"'`))
		keep = indexKeys[key]
		if keep {
			out = append(out, line...)
			if line[len(line)-1] != '\n' {
				out = append(out, '\n')
			}
		}
	}
	return out, true
}

// indexer reads the index keys of task files with their includes merged
// in, as lm-eval's TaskManager indexes each file with
// load_yaml_config(mode="simple"): an included file's task, group and tag
// apply to the including file unless it sets its own. The merge is by
// top-level key, so merging only the index keys gives the same index as
// merging whole files. Results are cached by file, so a template shared
// by many tasks is read and parsed once.
type indexer struct {
	cache   map[string]indexed
	outside map[string]bool // files read outside every source
}

type indexed struct {
	cfg map[string]any
	err error
}

func newIndexer() *indexer {
	return &indexer{cache: map[string]indexed{}, outside: map[string]bool{}}
}

// config returns f's index keys, includes resolved; data is f's content
// when the caller has read it already, else nil. The returned map is
// shared with the cache and must not be modified.
func (ix *indexer) config(f fileRef, data []byte, stack []string) (map[string]any, error) {
	key := f.String()
	if c, ok := ix.cache[key]; ok {
		return c.cfg, c.err
	}
	for _, s := range stack {
		if s == key {
			return nil, fmt.Errorf("%w: %s", ErrIncludeCycle, strings.Join(append(stack, key), " -> "))
		}
	}
	cfg, err := ix.resolve(f, data, append(stack, key))
	ix.cache[key] = indexed{cfg, err}
	return cfg, err
}

func (ix *indexer) resolve(f fileRef, data []byte, stack []string) (map[string]any, error) {
	if f.abs != "" {
		ix.outside[f.abs] = true
	}
	if data == nil {
		var err error
		if data, err = f.read(); err != nil {
			return nil, err
		}
	}
	head, ok := scanTopLevel(data)
	if !ok {
		head = data
	}
	cfg, err := parseYAML(head, f.funcDir())
	if err != nil && ok {
		cfg, err = parseYAML(data, f.funcDir())
	}
	if err != nil {
		return nil, err
	}
	inc, ok := cfg["include"]
	if !ok {
		return cfg, nil
	}
	delete(cfg, "include")
	incs, err := includeList(inc)
	if err != nil {
		return nil, err
	}
	merged := map[string]any{}
	for i := len(incs) - 1; i >= 0; i-- {
		sub, err := ix.config(f.resolve(incs[i]), nil, stack)
		if err != nil {
			return nil, fmt.Errorf("include %s: %w", incs[i], err)
		}
		for k, v := range sub {
			merged[k] = v
		}
	}
	for k, v := range cfg {
		merged[k] = v
	}
	return merged, nil
}

func tagList(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func (r *Registry) put(e *Entry) bool {
	if k := e.ref.src; k != nil && k.keep != nil && !k.keep(e.Name) {
		return false
	}
	if old, dup := r.entries[e.Name]; dup && old.Kind != KindTag {
		switch e.Kind {
		case KindGroup:
			// lm-eval logs duplicate groups at debug level; keep the later.
		default:
			r.warnf("Duplicate task name %q: %s overrides %s", e.Name, e.File, old.File)
			if r.shadowed == nil {
				r.shadowed = map[string][]string{}
			}
			r.shadowed[e.Name] = append(r.shadowed[e.Name], old.File)
		}
		if old.Kind != KindGroup {
			r.untag(old)
		}
	}
	r.entries[e.Name] = e
	return true
}

func (r *Registry) untag(old *Entry) {
	for _, tag := range old.Tags {
		if t, ok := r.entries[tag]; ok && t.Kind == KindTag {
			t.Tags = remove(t.Tags, old.Name)
		}
	}
}

func remove(l []string, s string) []string {
	out := l[:0]
	for _, e := range l {
		if e != s {
			out = append(out, e)
		}
	}
	return out
}

func (r *Registry) registerTags(task string, tags []string) {
	for _, tag := range tags {
		e, ok := r.entries[tag]
		if !ok {
			e = &Entry{Name: tag, Kind: KindTag, listItem: -1}
			r.entries[tag] = e
		}
		if e.Kind != KindTag {
			r.warnf("tag %q of task %q has the name of a %s; ignored", tag, task, e.Kind)
			continue
		}
		e.Tags = append(remove(e.Tags, task), task)
	}
}

func (r *Registry) indexConfig(f fileRef, cfg map[string]any) {
	tags := tagList(cfg["tag"])
	dataset, _ := cfg["dataset_name"].(string)
	taskName, taskIsName := cfg["task"].(string)
	switch {
	case cfg["class"] != nil:
		name := taskName
		if name == "" {
			return
		}
		if r.put(&Entry{Name: name, Kind: KindPythonTask, File: f.String(), Tags: tags, Dataset: dataset, ref: f, listItem: -1}) {
			r.registerTags(name, tags)
		}
	case cfg["group"] != nil && taskIsName:
		// Old-style task with `group:`, which lm-eval treats as a tag.
		tags = append(tags, tagList(cfg["group"])...)
		if r.put(&Entry{Name: taskName, Kind: KindTask, File: f.String(), Tags: tags, Dataset: dataset, ref: f, listItem: -1}) {
			r.registerTags(taskName, tags)
		}
	case cfg["group"] != nil:
		name, ok := cfg["group"].(string)
		if !ok {
			r.warnf("%s: group name %v is not a string; skipped", f, cfg["group"])
			return
		}
		r.put(&Entry{Name: name, Kind: KindGroup, File: f.String(), Tags: tags, ref: f, listItem: -1})
	case cfg["task_list"] != nil:
		list, _ := cfg["task_list"].([]any)
		for i, item := range list {
			name, itemTags, itemDataset := "", tags, dataset
			switch it := item.(type) {
			case string:
				name = it
			case map[string]any:
				name = str(it["task"])
				itemTags = append(append([]string{}, tags...), tagList(it["tag"])...)
				if d, ok := it["dataset_name"].(string); ok {
					itemDataset = d
				}
			}
			if name == "" {
				continue
			}
			if r.put(&Entry{Name: name, Kind: KindTask, File: f.String(), Tags: itemTags, Dataset: itemDataset, ref: f, listItem: i}) {
				r.registerTags(name, itemTags)
			}
		}
	case cfg["task"] != nil:
		if _, isList := cfg["task"].([]any); isList {
			r.warnf("%s: a task list without a group name; skipped", f)
			return
		}
		if !taskIsName {
			return
		}
		if r.put(&Entry{Name: taskName, Kind: KindTask, File: f.String(), Tags: tags, Dataset: dataset, ref: f, listItem: -1}) {
			r.registerTags(taskName, tags)
		}
	}
}

// Entries lists the entries of the given kinds (all when none), sorted by
// name.
func (r *Registry) Entries(kinds ...Kind) []*Entry {
	if len(kinds) == 0 {
		kinds = []Kind{KindTask, KindPythonTask, KindGroup, KindTag}
	}
	var out []*Entry
	for _, n := range r.names(kinds...) {
		out = append(out, r.entries[n])
	}
	return out
}

// Available reports whether a task or group can be loaded: nil, or the
// error Load would give (an *UnavailableError for a task that needs a
// Python function or class, a *MissingMembersError for a group).
func (r *Registry) Available(name string) error {
	_, err := r.Load([]string{name})
	return err
}

// Place is where a task or group's file lies: the tree it was indexed
// from ("" for the built-in tree, else the directory given to AddDir or
// AddFS) and its slash-separated path in that tree; rel is "" for tags.
func (e *Entry) Place() (root, rel string) {
	if e.ref.src == nil {
		return "", ""
	}
	if e.ref.abs != "" {
		return "", filepath.ToSlash(e.ref.abs)
	}
	return e.ref.src.name, e.ref.path
}

// Lookup returns the entry registered under name.
func (r *Registry) Lookup(name string) (*Entry, bool) {
	e, ok := r.entries[name]
	return e, ok
}

func (r *Registry) names(kinds ...Kind) []string {
	var out []string
	for n, e := range r.entries {
		for _, k := range kinds {
			if e.Kind == k {
				out = append(out, n)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// All lists every registered name (tasks, groups and tags), sorted.
func (r *Registry) All() []string { return r.names(KindTask, KindPythonTask, KindGroup, KindTag) }

// Tasks lists the task names, sorted.
func (r *Registry) Tasks() []string { return r.names(KindTask, KindPythonTask) }

// Groups lists the group names, sorted.
func (r *Registry) Groups() []string { return r.names(KindGroup) }

// Tags lists the tag names, sorted.
func (r *Registry) Tags() []string { return r.names(KindTag) }

// Match expands names and shell wildcards (mmlu_*) against every registered
// name; a name that is an existing YAML file path is kept as is, and a
// directory stands for the *.yaml files directly in it. The
// result keeps the order of patterns, each pattern's matches sorted. An
// error names the patterns that match nothing, with the closest names
// ("did you mean ...?"), or, for a name declared by a file the index
// skipped, that file and its parse error.
func (r *Registry) Match(patterns []string) ([]string, error) {
	var out, missing []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	var all []string // every name, sorted: only for wildcards
	for _, p := range patterns {
		if _, ok := r.entries[p]; ok {
			add(p)
			continue
		}
		if isYAMLPath(p) {
			add(p)
			continue
		}
		if files := yamlFilesIn(p); len(files) > 0 {
			// A directory of task files, as lm-eval's --tasks DIR.
			for _, f := range files {
				add(f)
			}
			continue
		}
		if strings.ContainsAny(p, "*?[") {
			if all == nil {
				all = r.All()
			}
			n := 0
			for _, name := range all {
				if ok, err := path.Match(p, name); err == nil && ok {
					add(name)
					n++
				}
			}
			if n > 0 {
				continue
			}
		}
		missing = append(missing, p)
	}
	if len(missing) > 0 {
		return out, r.notFoundError(missing, nil)
	}
	return out, nil
}

func isYAMLPath(p string) bool {
	if !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml") {
		return false
	}
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func yamlFilesIn(dir string) []string {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	sort.Strings(files)
	// Shared templates (no task or group key, own or included) are not
	// tasks.
	var out []string
	ix := newIndexer()
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		if cfg, err := ix.config(fileRef{abs: abs}, nil, nil); err == nil && (cfg["task"] != nil || cfg["group"] != nil) {
			out = append(out, f)
		}
	}
	return out
}

// SplitNames splits a --tasks value on commas and whitespace.
func SplitNames(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
}

// UnavailableError says why a task cannot be loaded: a `!function` with no
// native implementation, a Python class task, promptsource prompts.
type UnavailableError struct {
	Task   string
	File   string
	Reason string
	// Missing lists the `!function` names with no native implementation.
	Missing []string
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("task %s (%s) is unavailable: %s", e.Task, e.File, e.Reason)
}

// MissingMembersError is a group whose members are not registered.
type MissingMembersError struct {
	Group   string
	File    string
	Missing []string
}

func (e *MissingMembersError) Error() string {
	return fmt.Sprintf("group %s (%s): %d member(s) not found: %s", e.Group, e.File, len(e.Missing), strings.Join(e.Missing, ", "))
}

// errs collects problems so one Load reports all of them.
type errs []error

func (e *errs) add(err error) {
	if err != nil {
		*e = append(*e, err)
	}
}

func (e errs) err() error { return errors.Join(e...) }
