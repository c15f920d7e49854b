package harness

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/harness/tasktree"
)

// RegistryOptions say which task trees NewRegistry indexes.
type RegistryOptions struct {
	// Builtin is the built-in task tree, indexed first (benchmarks.FS();
	// nil: none).
	Builtin fs.FS
	// Include are the --include_path directories; they take precedence
	// over everything else.
	Include []string
	// Metadata is --metadata, applied to every task.
	Metadata map[string]any
	// TasksSource is --tasks_source; "" means $LMEVAL_TASKS_SOURCE, else
	// lm-eval at tasktree.PinnedCommit.
	TasksSource string
	// Want are the names about to be loaded. When one of them is neither
	// built in nor in an include path, lm-eval's task tree is used,
	// downloaded first if it is not in the cache. With Want nil (listing),
	// the tree is used when it is available locally.
	Want []string
	// NoDownload uses the tree only when it is available locally.
	NoDownload bool
	// NoTree indexes only Builtin and Include, never lm-eval's task tree
	// (the registry a Plan makes when it is given none).
	NoTree bool
	// Tree says where downloads go (and a progress writer).
	Tree tasktree.Options
	// CacheDir, when set, caches the index of each directory indexed (the
	// include paths, the task tree) there (task.Registry.CacheDir).
	CacheDir string
	// OnIndex is task.Registry.OnIndex, for progress while indexing.
	OnIndex func(path string)
}

// NewRegistry indexes the built-in tasks (lmeval's are benchmarks.FS()),
// lm-eval's task tree when it is needed or asked for (see
// RegistryOptions), and the include paths, later taking precedence, with
// --metadata applied — except that a built-in task or group whose
// definition is identical to the tree's keeps the built-in's place, so
// the tree replaces only the built-ins that differ from it. The tree is
// nil when none is used.
func NewRegistry(ctx context.Context, o RegistryOptions) (*task.Registry, *tasktree.Tree, error) {
	base, err := indexRegistry(o)
	if err != nil || o.NoTree {
		return base, nil, err
	}
	spec := o.TasksSource
	explicit := spec != ""
	if !explicit {
		spec = os.Getenv(tasktree.EnvSource)
		explicit = spec != ""
	}
	for _, f := range base.Skipped() {
		slog.Warn("task file skipped: it does not parse", "file", f)
	}
	var missing []string
	for _, n := range o.Want {
		if _, err := base.Match([]string{n}); err != nil {
			missing = append(missing, n)
		}
	}
	if strings.EqualFold(strings.TrimSpace(spec), tasktree.None) {
		if len(missing) > 0 {
			return nil, nil, missingError(base, missing, true)
		}
		return base, nil, nil
	}
	if !explicit && o.Want != nil && len(missing) == 0 {
		return base, nil, nil
	}
	src, err := tasktree.Parse(spec)
	if err != nil {
		return nil, nil, fmt.Errorf("--tasks_source: %w", err)
	}
	// Before anything is downloaded: a name declared by a file that does
	// not parse, or that lm-eval's tree (whose names are known at the
	// pinned commit) does not have either, is an error with the closest
	// names.
	if err := checkMissing(base, missing, src.Commit == tasktree.PinnedCommit && src.Pin != nil); err != nil {
		return nil, nil, err
	}
	tree, ok, err := src.Local(o.Tree)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		if o.NoDownload || (len(missing) == 0 && !explicit) {
			return base, nil, nil
		}
		if len(missing) > 0 {
			slog.Info("not built in nor in an --include_path: from lm-eval's task tree", "tasks", strings.Join(missing, ","))
		}
		if tree, err = src.Fetch(ctx, o.Tree); err != nil {
			if len(missing) > 0 {
				return nil, nil, fmt.Errorf("--tasks %s: not built in or in an --include_path, and lm-eval's task tree is not available: %w\n"+
					"  where the network is, 'lmeval pack' fetches it into an archive that 'lmeval unpack' puts here; or give --tasks_source DIR (a checkout of lm-eval)",
					strings.Join(missing, ", "), err)
			}
			return nil, nil, err
		}
		if !tree.Verified {
			slog.Warn("lm-eval's task tree has no pinned digest to check (another commit or archive); using it unverified", "url", src.URL, "digest", tree.Digest.SHA256)
		}
	}
	r, err := registryWithTree(tree.Dir, o)
	if err != nil {
		return nil, nil, err
	}
	return r, tree, nil
}

// checkMissing returns the error for the wanted names the base registry
// lacks that no download can supply: those declared by a file the index
// skipped, and, when the tree's names are known (pinnedNames), those it
// does not have either.
func checkMissing(base *task.Registry, missing []string, pinnedNames bool) error {
	var bad []string
	for _, n := range missing {
		if base.Declares(n) || pinnedNames && !tasktree.PinnedHas(n) {
			bad = append(bad, n)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return missingError(base, bad, false)
}

// missingError says why names are not found: the closest names of the
// registry and of lm-eval's tree at the pinned commit, the files the index
// skipped; with treeOff, which names only the tree (turned off) has.
func missingError(base *task.Registry, names []string, treeOff bool) error {
	var inTree, rest []string
	for _, n := range names {
		if treeOff && !base.Declares(n) && tasktree.PinnedHas(n) {
			inTree = append(inTree, n)
		} else {
			rest = append(rest, n)
		}
	}
	var parts []string
	if len(rest) > 0 {
		parts = append(parts, base.NotFound(rest, tasktree.PinnedNames()).Error())
	}
	if len(inTree) > 0 {
		parts = append(parts, fmt.Sprintf("%s: only in lm-eval's task tree, which --tasks_source none (or %s=none) turns off", strings.Join(inTree, ", "), tasktree.EnvSource))
	}
	if skipped := base.Skipped(); len(skipped) > 0 {
		parts = append(parts, fmt.Sprintf("%d task file(s) in the include paths do not parse: %s", len(skipped), strings.Join(skipped[:min(len(skipped), 5)], "; ")))
	}
	return fmt.Errorf("--tasks: %s", strings.Join(parts, "; "))
}

// indexRegistry indexes the built-in tree and then each include path
// (later trees take precedence, as in lm-eval), caching directory indexes
// in o.CacheDir ("": none), with --metadata applied.
func indexRegistry(o RegistryOptions) (*task.Registry, error) {
	r := task.NewRegistry()
	r.CacheDir, r.OnIndex = o.CacheDir, o.OnIndex
	if o.Builtin != nil {
		if err := r.AddFS("", o.Builtin); err != nil {
			return nil, fmt.Errorf("built-in tasks: %w", err)
		}
	}
	return addIncludes(r, o)
}

// registryWithTree indexes the tree, the built-ins that are not in it or
// are identical to its definition, then the include paths.
func registryWithTree(dir string, o RegistryOptions) (*task.Registry, error) {
	r := task.NewRegistry()
	r.CacheDir, r.OnIndex = o.CacheDir, o.OnIndex
	if err := r.AddDir(dir); err != nil {
		return nil, fmt.Errorf("task tree %s: %w", dir, err)
	}
	if o.Builtin != nil {
		builtin := task.NewRegistry()
		if err := builtin.AddFS("", o.Builtin); err != nil {
			return nil, fmt.Errorf("built-in tasks: %w", err)
		}
		keep := map[string]bool{}
		for _, e := range builtin.Entries(task.KindTask, task.KindPythonTask, task.KindGroup) {
			if _, inTree := r.Lookup(e.Name); !inTree || sameDefinition(builtin, r, e.Name) {
				keep[e.Name] = true
			} else {
				slog.Debug("built-in task differs from lm-eval's task tree; the tree's is used", "name", e.Name)
			}
		}
		if err := r.AddFSFiltered("", o.Builtin, func(name string) bool { return keep[name] }); err != nil {
			return nil, fmt.Errorf("built-in tasks: %w", err)
		}
	}
	return addIncludes(r, o)
}

// addIncludes indexes o's include paths into r, after what r has, and
// applies --metadata.
func addIncludes(r *task.Registry, o RegistryOptions) (*task.Registry, error) {
	for _, dir := range o.Include {
		if err := r.AddDir(dir); err != nil {
			return nil, fmt.Errorf("--include_path %s: %w", dir, err)
		}
	}
	if len(o.Metadata) > 0 {
		r.Metadata = o.Metadata
	}
	return r, nil
}

// sameDefinition reports whether name loads to the same configuration in
// both registries: every task's configuration with includes merged, as
// the results record it (configValue: the YAML's text, comments and key
// order do not count; `!function`s compare by name), and for groups their
// structure.
func sameDefinition(a, b *task.Registry, name string) bool {
	sa, err := a.Load([]string{name})
	if err != nil {
		return false
	}
	sb, err := b.Load([]string{name})
	if err != nil {
		return false
	}
	return reflect.DeepEqual(canonMembers(sa.Members), canonMembers(sb.Members))
}

func canonMembers(ms []task.Member) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		if m.Task != nil {
			out[i] = map[string]any{"task": m.Task.Name, "config": configValue(m.Task.Config.Raw)}
			continue
		}
		g := m.Group
		out[i] = map[string]any{"group": g.Name, "alias": g.Alias, "aggregate": g.Aggregate,
			"metadata": configValue(g.Metadata), "members": canonMembers(g.Members)}
	}
	return out
}

// TaskFileLabel is how listings and results name the file a task comes
// from: an absolute path for files on disk (an --include_path, lm-eval's
// task tree), "built-in:" and the path in the embedded tree otherwise.
func TaskFileLabel(file string) string {
	if file == "" || filepath.IsAbs(file) {
		return file
	}
	return "built-in:" + file
}
