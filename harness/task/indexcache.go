package task

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/lmeval/lmeval/python/pyval"
)

// indexCacheVersion changes whenever what the index keeps of a file does.
const indexCacheVersion = "index-v2"

// TreeStamp fingerprints every file under dir (task YAML, Python helpers,
// anything else) by relative path, size and modification time, so a cache
// keyed by it is stale as soon as any file is added, removed or changed.
// __pycache__ and .ipynb_checkpoints folders are left out, as the index
// leaves them out.
func TreeStamp(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "__pycache__" || n == ".ipynb_checkpoints" {
				return fs.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", rel, info.Size(), info.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("stamp %s: %w", dir, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ExecutableStamp identifies the running program (path, size, modification
// time), for caches whose content depends on the code: the native ports
// and the YAML reader.
func ExecutableStamp() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	info, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	return fmt.Sprintf("%s\x00%d\x00%d", exe, info.Size(), info.ModTime().UnixNano())
}

// indexRecord is what indexing one file gives: its index keys, reduced to
// what indexConfig reads, or the warning it was skipped with.
type indexRecord struct {
	Path string         `json:"path"`
	Cfg  map[string]any `json:"cfg,omitempty"`
	Warn string         `json:"warn,omitempty"`
	// A file that does not parse: the names it declares and the error,
	// so that asking for one of them reports the file's error.
	Names []string `json:"names,omitempty"`
	Err   string   `json:"err,omitempty"`
}

// indexFile is the index cache of one directory.
type indexFile struct {
	Version string `json:"version"`
	Dir     string `json:"dir"`
	// Outside are files outside Dir the index read (absolute or ../
	// includes), with their stamps when indexed.
	Outside map[string]string `json:"outside,omitempty"`
	Records []indexRecord     `json:"records"`
}

// fileStamp is one file's size and modification time, "" when it cannot
// be read.
func fileStamp(p string) string {
	info, err := os.Stat(p)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d\x00%d", info.Size(), info.ModTime().UnixNano())
}

// indexCachePath is where the index cache of dir lives for the tree stamp
// of dir.
func (r *Registry) indexCachePath(dir, stamp string) string {
	key := sha256.Sum256([]byte(indexCacheVersion + "\x00" + ExecutableStamp() + "\x00" + dir + "\x00" + stamp))
	return filepath.Join(r.CacheDir, "index-"+hex.EncodeToString(key[:16])+".json")
}

// Fingerprint identifies everything the registry was built from: the
// running program (the built-in tasks and native ports are in it) and the
// TreeStamp of each AddDir directory, in order. It is "" when the registry
// has no CacheDir or a directory could not be stamped; a cache of anything
// computed from the registry can be keyed by it.
func (r *Registry) Fingerprint() string {
	if r.CacheDir == "" || r.unstamped {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\n", indexCacheVersion, ExecutableStamp())
	for _, s := range r.stamps {
		fmt.Fprintf(h, "%s\n", s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// loadIndexCache reads a cached index, or nil when there is none or it is
// stale.
func loadIndexCache(p, dir string) []indexRecord {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var f indexFile
	if json.Unmarshal(data, &f) != nil || f.Version != indexCacheVersion || f.Dir != dir {
		return nil
	}
	for o, st := range f.Outside {
		if fileStamp(o) != st {
			return nil
		}
	}
	return f.Records
}

// saveIndexCache writes a cached index (atomically; failures only cost the
// next run the time to index again).
func saveIndexCache(p, dir string, recs []indexRecord, outside []string) {
	f := indexFile{Version: indexCacheVersion, Dir: dir, Records: recs}
	if len(outside) > 0 {
		f.Outside = map[string]string{}
		for _, o := range outside {
			f.Outside[o] = fileStamp(o)
		}
	}
	data, err := json.Marshal(f)
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(p), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".index-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
	}
}

// indexView reduces a file's index keys to what indexConfig reads, in
// values that survive a JSON round trip, so a cached index gives the same
// registry as a fresh one.
func indexView(cfg map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range []string{"task", "group", "tag", "class", "task_list", "dataset_name"} {
		v, ok := cfg[k]
		if !ok || v == nil {
			continue
		}
		switch k {
		case "class":
			out[k] = true
		case "dataset_name":
			if _, ok := v.(string); ok {
				out[k] = v
			}
		case "tag":
			out[k] = stringsAsAny(tagList(v))
		case "task":
			switch v.(type) {
			case string:
				out[k] = v
			case []any:
				out[k] = []any{}
			default:
				out[k] = true // set, but not a name
			}
		case "group":
			switch g := v.(type) {
			case string:
				out[k] = g
			case []any:
				out[k] = stringsAsAny(tagList(g))
			default:
				out[k] = map[string]any{"value": pyval.Repr(plain(g))}
			}
		case "task_list":
			list, _ := v.([]any)
			items := []any{}
			for _, item := range list {
				switch it := item.(type) {
				case string:
					items = append(items, it)
				case map[string]any:
					m := map[string]any{"task": str(it["task"])}
					if tags := tagList(it["tag"]); len(tags) > 0 {
						m["tag"] = stringsAsAny(tags)
					}
					if d, ok := it["dataset_name"].(string); ok {
						m["dataset_name"] = d
					}
					items = append(items, m)
				default:
					items = append(items, nil)
				}
			}
			out[k] = items
		}
	}
	return out
}

func stringsAsAny(s []string) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}

// plain replaces FuncRefs with their text, for messages.
func plain(v any) any {
	switch x := v.(type) {
	case FuncRef:
		return x.String()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = plain(e)
		}
		return out
	}
	return v
}

// outsideFiles lists the files the indexer read outside every source tree
// (absolute includes, includes above an --include_path).
func (ix *indexer) outsideFiles() []string {
	out := make([]string, 0, len(ix.outside))
	for k := range ix.outside {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// replay indexes records, fresh or cached, in order.
func (r *Registry) replay(src *source, recs []indexRecord) {
	for _, rec := range recs {
		if rec.Warn != "" {
			r.warnf("%s", rec.Warn)
			if rec.Err != "" {
				f := fileRef{src: src, path: rec.Path}
				r.broken = append(r.broken, brokenFile{file: f.String(), names: rec.Names, err: errors.New(rec.Err)})
			}
			continue
		}
		r.indexConfig(fileRef{src: src, path: rec.Path}, rec.Cfg)
	}
}
