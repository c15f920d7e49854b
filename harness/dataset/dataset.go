// Package dataset loads the documents of an lm-eval task's dataset the way
// Python's datasets.load_dataset(dataset_path, dataset_name,
// **dataset_kwargs) would, without Python: from the Hugging Face Hub (its
// Parquet conversion, or the repository's own data files) or from local
// json/csv/parquet/text files and directories.
//
// Documents are map[string]any whose values keep their types: int64, float64,
// bool, string, nil, []any and map[string]any, nested as in the source.
package dataset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/hub"
	"github.com/lmeval/lmeval/python/pyval"
)

// ErrNoSplit is wrapped by errors for a split the dataset does not have.
var ErrNoSplit = errors.New("no such split")

// Spec names a dataset as a task does: dataset_path, dataset_name and
// dataset_kwargs.
type Spec struct {
	Path   string         // Hub repo ("owner/name" or a legacy name), "json", "csv", "parquet", "text", or a local directory
	Name   string         // config name; "" for the default config
	Kwargs map[string]any // data_files, data_dir, revision, field, sep, ... (others are ignored)
}

func (s Spec) String() string {
	if s.Name != "" {
		return s.Path + "/" + s.Name
	}
	return s.Path
}

// Options configures loading. The zero value reads HF_ENDPOINT, HF_TOKEN,
// HF_HOME / HF_HUB_CACHE and HF_HUB_OFFLINE from the environment.
type Options struct {
	Endpoint string    // Hub base URL (HF_ENDPOINT)
	Token    string    // Hub token (HF_TOKEN)
	CacheDir string    // hub cache directory (HF_HUB_CACHE, default $HF_HOME/hub)
	Offline  bool      // use only the cache (HF_HUB_OFFLINE=1)
	Progress io.Writer // download progress bars; nil shows none
	// Dir is the directory relative local paths (data_files, data_dir, a
	// directory dataset_path) are resolved against; "" is the working
	// directory, as in lm-eval.
	Dir        string
	HTTPClient *http.Client
	// OnCacheFile is hub.Options.OnCacheFile.
	OnCacheFile func(path string)

	hub *hub.Client // shared by a Loader's calls
}

func (o Options) client() *hub.Client {
	if o.hub != nil {
		return o.hub
	}
	return hub.New(hub.Options{
		Endpoint:    o.Endpoint,
		Token:       o.Token,
		CacheDir:    o.CacheDir,
		Offline:     o.Offline,
		Progress:    o.Progress,
		HTTPClient:  o.HTTPClient,
		OnCacheFile: o.OnCacheFile,
	})
}

// Load returns the documents of one split of the dataset.
func Load(ctx context.Context, spec Spec, split string, opts Options) ([]map[string]any, error) {
	docs, _, err := LoadColumns(ctx, spec, split, opts)
	return docs, err
}

// LoadColumns is Load that also returns the split's column order (the
// files' schema: Parquet's, a CSV header, the first appearance of each
// key in JSON), which Python's datasets keeps in its rows and so lm-eval in
// the documents it logs.
func LoadColumns(ctx context.Context, spec Spec, split string, opts Options) ([]map[string]any, *pyval.Columns, error) {
	docs, cols, err := load(ctx, spec, split, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("dataset %s split %s: %w", spec, split, err)
	}
	unifyColumns(docs)
	return docs, cols, nil
}

// Splits lists the dataset's split names, sorted.
func Splits(ctx context.Context, spec Spec, opts Options) ([]string, error) {
	var splits []string
	var err error
	if dir, ok := localDir(spec, opts); ok {
		splits, err = localDirSplits(spec, dir, opts)
	} else if isBuilder(spec.Path) {
		var files map[string][]string
		if files, err = builderFiles(spec, opts); err == nil {
			splits = keys(files)
		}
	} else if !repoIDRe.MatchString(spec.Path) {
		err = errNotRepo(spec, opts)
	} else {
		splits, err = hubSplits(ctx, spec, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", spec, err)
	}
	sort.Strings(splits)
	return splits, nil
}

func load(ctx context.Context, spec Spec, split string, opts Options) ([]map[string]any, *pyval.Columns, error) {
	if dir, ok := localDir(spec, opts); ok {
		return loadLocalDir(spec, dir, split, opts)
	}
	if isBuilder(spec.Path) {
		files, err := builderFiles(spec, opts)
		if err != nil {
			return nil, nil, err
		}
		names, ok := files[split]
		if !ok {
			return nil, nil, fmt.Errorf("no split %q in data_files (splits: %s): %w", split, strings.Join(keys(files), ", "), ErrNoSplit)
		}
		var c *hub.Client
		local := make([]string, len(names))
		for i, n := range names {
			local[i] = n
			_, _, isZip := zipEntry(n)
			if !isRemote(n) && !isZip {
				continue
			}
			if c == nil {
				c = opts.client()
			}
			if isZip {
				if local[i], err = localZipFile(ctx, c, n); err != nil {
					return nil, nil, friendly(Spec{Path: n}, err)
				}
				continue
			}
			if local[i], err = c.DownloadURL(ctx, n); err != nil {
				return nil, nil, friendly(Spec{Path: n}, err)
			}
		}
		return readFiles(local, format(spec.Path), spec.Kwargs)
	}
	if !repoIDRe.MatchString(spec.Path) {
		return nil, nil, errNotRepo(spec, opts)
	}
	return loadHub(ctx, spec, split, opts)
}

// repoIDRe matches what can be a Hub dataset id: "owner/name" or a legacy
// bare name.
var repoIDRe = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)?$`)

func errNotRepo(spec Spec, opts Options) error {
	return fmt.Errorf("dataset_path %q is no local directory (%s does not exist) and cannot be a Hub dataset id (owner/name)", spec.Path, resolvePath(spec.Path, opts))
}

// isBuilder reports whether path names one of datasets' packaged builders.
func isBuilder(path string) bool {
	switch format(path) {
	case formatJSON, formatCSV, formatParquet, formatText:
		return true
	}
	return false
}

// localDir reports whether the dataset path is a local directory.
func localDir(spec Spec, opts Options) (string, bool) {
	if isBuilder(spec.Path) || spec.Path == "" {
		return "", false
	}
	p := resolvePath(spec.Path, opts)
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return p, true
	}
	return "", false
}

func resolvePath(p string, opts Options) string {
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[2:])
		}
	}
	if filepath.IsAbs(p) || opts.Dir == "" {
		return p
	}
	return filepath.Join(opts.Dir, p)
}

// readFiles reads and concatenates the files of one split; f "" infers each
// file's format from its name. The column order is the first file's, with
// columns only later files have appended.
func readFiles(names []string, f format, kwargs map[string]any) ([]map[string]any, *pyval.Columns, error) {
	var docs []map[string]any
	cols := &pyval.Columns{}
	for _, n := range names {
		ff := f
		if ff == "" {
			if ff = formatOf(n); ff == "" {
				return nil, nil, fmt.Errorf("%s: not a data file lmeval can read (parquet, json, jsonl, csv, tsv, txt)", n)
			}
		}
		d, c, err := readFile(n, ff, kwargs)
		if err != nil {
			return nil, nil, err
		}
		docs = append(docs, d...)
		cols.Merge(c)
	}
	return docs, cols, nil
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Loader loads datasets with fixed Options and keeps what it has read, so
// tasks sharing a dataset (a test split and a few-shot split, or several
// tasks over one file) read it once. Its Load method fits the task layer's
// DocLoader. Each call returns fresh copies that callers may modify.
type Loader struct {
	opts  Options
	mu    sync.Mutex
	cache map[string]*entry
}

type entry struct {
	once sync.Once
	docs []map[string]any
	cols *pyval.Columns
	err  error
}

// NewLoader returns a Loader using opts.
func NewLoader(opts Options) *Loader {
	opts.hub = opts.client()
	return &Loader{opts: opts, cache: make(map[string]*entry)}
}

// Load is like the package's Load with the Loader's options.
func (l *Loader) Load(ctx context.Context, spec Spec, split string) ([]map[string]any, error) {
	e, err := l.entry(ctx, spec, split)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, len(e.docs))
	for i, d := range e.docs {
		out[i] = pyval.DeepCopy(d).(map[string]any)
	}
	return out, nil
}

// Columns is the split's column order (see LoadColumns), loading the
// split unless the Loader has it.
func (l *Loader) Columns(ctx context.Context, spec Spec, split string) (*pyval.Columns, error) {
	e, err := l.entry(ctx, spec, split)
	if err != nil {
		return nil, err
	}
	return e.cols, nil
}

func (l *Loader) entry(ctx context.Context, spec Spec, split string) (*entry, error) {
	k := fmt.Sprintf("%s\x00%s\x00%s\x00%v", spec.Path, spec.Name, split, canonical(spec.Kwargs))
	l.mu.Lock()
	e := l.cache[k]
	if e == nil {
		e = &entry{}
		l.cache[k] = e
	}
	l.mu.Unlock()
	e.once.Do(func() { e.docs, e.cols, e.err = LoadColumns(ctx, spec, split, l.opts) })
	if e.err != nil {
		if errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded) {
			// Do not remember a cancellation as the dataset's answer.
			l.mu.Lock()
			delete(l.cache, k)
			l.mu.Unlock()
		}
		return nil, e.err
	}
	return e, nil
}

// Splits is like the package's Splits with the Loader's options.
func (l *Loader) Splits(ctx context.Context, spec Spec) ([]string, error) {
	return Splits(ctx, spec, l.opts)
}

// canonical renders kwargs with sorted keys for use in a cache key.
func canonical(v any) string {
	switch x := v.(type) {
	case map[string]any:
		var b strings.Builder
		b.WriteByte('{')
		for _, k := range keys(x) {
			fmt.Fprintf(&b, "%q:%s,", k, canonical(x[k]))
		}
		b.WriteByte('}')
		return b.String()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = canonical(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return fmt.Sprintf("%T:%v", v, v)
}
