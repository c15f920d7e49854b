package dataset

import (
	"github.com/lmeval/lmeval/python/pyval"

	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// patternsOf normalises a data_files value (a string, a list, or a map from
// split to either, or a list of {split, path} entries as README configs
// write it) to split -> patterns. A bare string or list is the train split,
// as in datasets.
func patternsOf(v any) (map[string][]string, error) {
	out := map[string][]string{}
	strs := func(v any) ([]string, error) {
		switch x := v.(type) {
		case string:
			return []string{x}, nil
		case []any:
			var s []string
			for _, e := range x {
				str, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("data_files entry %v is not a string", e)
				}
				s = append(s, str)
			}
			return s, nil
		case []string:
			return x, nil
		}
		return nil, fmt.Errorf("data_files value %v (%T) is not a string or list", v, v)
	}
	switch x := v.(type) {
	case map[string]any:
		for split, p := range x {
			s, err := strs(p)
			if err != nil {
				return nil, err
			}
			out[split] = s
		}
	case []any:
		if len(x) > 0 {
			if _, isMap := x[0].(map[string]any); isMap {
				for _, e := range x {
					m, ok := e.(map[string]any)
					if !ok {
						return nil, fmt.Errorf("data_files mixes entries %v", e)
					}
					split, _ := m["split"].(string)
					if split == "" {
						split = "train"
					}
					s, err := strs(m["path"])
					if err != nil {
						return nil, err
					}
					out[split] = append(out[split], s...)
				}
				return out, nil
			}
		}
		s, err := strs(x)
		if err != nil {
			return nil, err
		}
		out["train"] = s
	default:
		s, err := strs(v)
		if err != nil {
			return nil, err
		}
		out["train"] = s
	}
	return out, nil
}

// globRegexp translates a datasets/fsspec glob into a regexp over slash
// paths: ** crosses directories, * and ? do not, [..] is a class.
func globRegexp(pattern string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch c {
		case '*':
			if i+1 < len(pattern) && pattern[i+1] == '*' {
				i++
				if i+1 < len(pattern) && pattern[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?")
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			j := strings.IndexByte(pattern[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := pattern[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// matchFiles returns the files (slash paths) matching the patterns: each
// pattern's matches sorted, patterns in order, no file twice; a pattern that
// matches nothing is an error naming it, as in datasets.
func matchFiles(files []string, patterns []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, p := range patterns {
		p = strings.TrimPrefix(filepath.ToSlash(p), "./")
		re, err := globRegexp(p)
		if err != nil {
			return nil, fmt.Errorf("data_files pattern %q: %w", p, err)
		}
		var matched []string
		for _, f := range files {
			if re.MatchString(f) {
				matched = append(matched, f)
			}
		}
		if len(matched) == 0 {
			return nil, fmt.Errorf("no file matches data_files pattern %q", p)
		}
		sort.Strings(matched)
		for _, f := range matched {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// splitKeywords are datasets' split names and the words in file and
// directory names that mean them (datasets.data_files.SPLIT_KEYWORDS).
var splitKeywords = []struct {
	split string
	words []string
}{
	{"train", []string{"train", "training"}},
	{"validation", []string{"validation", "valid", "dev", "val"}},
	{"test", []string{"test", "testing", "eval", "evaluation"}},
}

const sepClass = `[-._ 0-9]`

var (
	inFileName = map[string]*regexp.Regexp{}
	inDirName  = map[string]*regexp.Regexp{}
)

func init() {
	for _, s := range splitKeywords {
		w := strings.Join(s.words, "|")
		// **/{kw}[-._ 0-9]* and **/*[-._ 0-9]{kw}[-._ 0-9]*
		inFileName[s.split] = regexp.MustCompile(`^(?:.*` + sepClass + `)?(?:` + w + `)` + sepClass + `[^/]*$`)
		// {kw}/**, {kw}[-._ 0-9]*/**, **/*[-._ 0-9]{kw}/**, **/*[-._ 0-9]{kw}[-._ 0-9]*/**
		inDirName[s.split] = regexp.MustCompile(`^(?:[^/]*` + sepClass + `)?(?:` + w + `)(?:` + sepClass + `[^/]*)?$`)
	}
}

// inferSplits assigns data files to splits by their names as datasets does
// when no data_files are given: split keywords in file names, else in
// directory names, else everything is the train split.
func inferSplits(files []string) map[string][]string {
	out := map[string][]string{}
	for _, f := range files {
		base := f[strings.LastIndexByte(f, '/')+1:]
		for _, s := range splitKeywords {
			if inFileName[s.split].MatchString(base) {
				out[s.split] = append(out[s.split], f)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, f := range files {
		dirs := strings.Split(f, "/")
		dirs = dirs[:len(dirs)-1]
	next:
		for _, s := range splitKeywords {
			for _, d := range dirs {
				if inDirName[s.split].MatchString(d) {
					out[s.split] = append(out[s.split], f)
					continue next
				}
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	if len(files) > 0 {
		out["train"] = files
	}
	return out
}

// dataFiles keeps the files datasets would consider data: known formats,
// outside hidden paths, never the README or loading script.
func dataFiles(files []string) []string {
	var out []string
	for _, f := range files {
		if formatOf(f) == "" || strings.HasPrefix(f, ".") || strings.Contains(f, "/.") || strings.Contains(f, "/__") || strings.HasPrefix(f, "__") {
			continue
		}
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// cardConfig is one entry of a dataset card's `configs:` YAML.
type cardConfig struct {
	Name      string `yaml:"config_name"`
	DataFiles any    `yaml:"data_files"`
	DataDir   string `yaml:"data_dir"`
	Default   bool   `yaml:"default"`
}

// cardConfigs reads the `configs:` list from README.md front matter.
func cardConfigs(readme []byte) ([]cardConfig, error) {
	s := strings.ReplaceAll(string(readme), "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return nil, nil
	}
	end := strings.Index(s[4:], "\n---")
	if end < 0 {
		return nil, nil
	}
	var meta struct {
		Configs []cardConfig `yaml:"configs"`
	}
	if err := yaml.Unmarshal([]byte(s[4:4+end]), &meta); err != nil {
		return nil, fmt.Errorf("README.md metadata: %w", err)
	}
	return meta.Configs, nil
}

// selectFiles maps splits to data files of a repository or directory, given
// its file list (slash paths), the dataset card's configs, the config name
// and data_files / data_dir kwargs: explicit data_files first, then the
// card's config, then a directory named like the config, then the split
// keywords of file names.
func selectFiles(all []string, configs []cardConfig, name string, kwargs map[string]any) (map[string][]string, error) {
	dataDir, _ := kwargs["data_dir"].(string)
	dataDir = strings.Trim(filepath.ToSlash(dataDir), "/")
	within := func(dir string) []string {
		if dir == "" || dir == "." {
			return all
		}
		var out []string
		for _, f := range all {
			if rest, ok := strings.CutPrefix(f, dir+"/"); ok {
				out = append(out, rest)
			}
		}
		return out
	}
	prefix := func(dir string, m map[string][]string) map[string][]string {
		if dir == "" || dir == "." {
			return m
		}
		for s, fs := range m {
			for i := range fs {
				fs[i] = dir + "/" + fs[i]
			}
			m[s] = fs
		}
		return m
	}
	fromPatterns := func(dir string, df any) (map[string][]string, error) {
		pats, err := patternsOf(df)
		if err != nil {
			return nil, err
		}
		files := within(dir)
		out := map[string][]string{}
		for split, ps := range pats {
			if out[split], err = matchFiles(files, ps); err != nil {
				return nil, fmt.Errorf("split %s: %w", split, err)
			}
		}
		return prefix(dir, out), nil
	}
	if df, ok := kwargs["data_files"]; ok && df != nil {
		return fromPatterns(dataDir, df)
	}
	if dataDir != "" {
		return prefix(dataDir, inferSplits(dataFiles(within(dataDir)))), nil
	}
	if len(configs) > 0 {
		var cfg *cardConfig
		for i := range configs {
			c := &configs[i]
			if c.Name == name || name == "" && (c.Default || len(configs) == 1 || c.Name == "default") {
				cfg = c
				break
			}
		}
		if cfg == nil {
			var names []string
			for _, c := range configs {
				names = append(names, c.Name)
			}
			if name == "" {
				return nil, fmt.Errorf("the dataset has several configs and none is the default: set dataset_name to one of %s", strings.Join(names, ", "))
			}
			return nil, fmt.Errorf("no config %q (configs: %s)", name, strings.Join(names, ", "))
		}
		dir := strings.Trim(cfg.DataDir, "/")
		if cfg.DataFiles != nil {
			return fromPatterns(dir, cfg.DataFiles)
		}
		return prefix(dir, inferSplits(dataFiles(within(dir)))), nil
	}
	if name != "" && name != "default" {
		if files := dataFiles(within(name)); len(files) > 0 {
			return prefix(name, inferSplits(files)), nil
		}
		return nil, fmt.Errorf("no config %q: the dataset card declares no configs and there is no directory %s/", name, name)
	}
	return inferSplits(dataFiles(all)), nil
}

// listDir lists the files under dir as slash paths relative to it.
func listDir(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(out)
	return out, err
}

// builderFiles resolves data_files / data_dir for a packaged builder
// (dataset_path json, csv, parquet, text) to split -> local files.
func builderFiles(spec Spec, opts Options) (map[string][]string, error) {
	df := spec.Kwargs["data_files"]
	dataDir, _ := spec.Kwargs["data_dir"].(string)
	if df == nil && dataDir == "" {
		return nil, fmt.Errorf("dataset_path %s needs dataset_kwargs.data_files or data_dir", spec.Path)
	}
	base := resolvePath(".", opts)
	if dataDir != "" {
		base = resolvePath(dataDir, opts)
	}
	if df == nil {
		files, err := listDir(base)
		if err != nil {
			return nil, fmt.Errorf("data_dir: %w", err)
		}
		var keep []string
		for _, f := range dataFiles(files) {
			if formatOf(f) == format(spec.Path) {
				keep = append(keep, f)
			}
		}
		if len(keep) == 0 {
			return nil, fmt.Errorf("data_dir %s holds no %s files", base, spec.Path)
		}
		return absolute(base, inferSplits(keep)), nil
	}
	pats, err := patternsOf(df)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for split, ps := range pats {
		for _, p := range ps {
			if member, target, ok := zipEntry(p); ok {
				if !isRemote(target) && !filepath.IsAbs(target) {
					p = "zip://" + member + "::" + filepath.Join(base, target)
				}
				out[split] = append(out[split], p)
				continue
			}
			if isRemote(p) {
				if _, rest, _ := strings.Cut(p, "://"); strings.ContainsAny(rest, "*?[") {
					return nil, fmt.Errorf("data_files (split %s): wildcards in remote paths are not supported: %s", split, p)
				}
				out[split] = append(out[split], p)
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(base, p)
			}
			if !strings.ContainsAny(p, "*?[") {
				if _, err := os.Stat(p); err != nil {
					return nil, fmt.Errorf("data_files (split %s): %w", split, err)
				}
				out[split] = append(out[split], p)
				continue
			}
			matches, err := globLocal(p)
			if err != nil {
				return nil, err
			}
			if len(matches) == 0 {
				return nil, fmt.Errorf("data_files (split %s): no file matches %s", split, p)
			}
			out[split] = append(out[split], matches...)
		}
	}
	return out, nil
}

// isRemote reports whether a data_files entry is a URL or an hf:// path.
func isRemote(p string) bool {
	return strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") || strings.HasPrefix(p, "hf://")
}

// globLocal expands a local glob pattern, ** included.
func globLocal(pattern string) ([]string, error) {
	if !strings.Contains(pattern, "**") {
		m, err := filepath.Glob(pattern)
		sort.Strings(m)
		return m, err
	}
	// Walk from the longest directory prefix without wildcards.
	root := pattern[:strings.IndexAny(pattern, "*?[")]
	root = filepath.Dir(root + "x")
	files, err := listDir(root)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(root, pattern)
	if err != nil {
		return nil, err
	}
	matched, err := matchFiles(files, []string{filepath.ToSlash(rel)})
	if err != nil {
		return nil, nil
	}
	for i, m := range matched {
		matched[i] = filepath.Join(root, filepath.FromSlash(m))
	}
	return matched, nil
}

func absolute(base string, m map[string][]string) map[string][]string {
	for s, fs := range m {
		for i := range fs {
			fs[i] = filepath.Join(base, filepath.FromSlash(fs[i]))
		}
		m[s] = fs
	}
	return m
}

// localDirFiles maps splits to the data files of a local dataset directory.
func localDirFiles(spec Spec, dir string) (map[string][]string, error) {
	all, err := listDir(dir)
	if err != nil {
		return nil, err
	}
	var configs []cardConfig
	if b, err := os.ReadFile(filepath.Join(dir, "README.md")); err == nil {
		if configs, err = cardConfigs(b); err != nil {
			return nil, err
		}
	}
	m, err := selectFiles(all, configs, spec.Name, spec.Kwargs)
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("directory %s holds no data files (parquet, json, jsonl, csv, tsv, txt)", dir)
	}
	return absolute(dir, m), nil
}

func loadLocalDir(spec Spec, dir, split string, opts Options) ([]map[string]any, *pyval.Columns, error) {
	m, err := localDirFiles(spec, dir)
	if err != nil {
		return nil, nil, err
	}
	files, ok := m[split]
	if !ok {
		return nil, nil, fmt.Errorf("no split %q in %s (splits: %s): %w", split, dir, strings.Join(keys(m), ", "), ErrNoSplit)
	}
	return readFiles(files, "", spec.Kwargs)
}

func localDirSplits(spec Spec, dir string, opts Options) ([]string, error) {
	m, err := localDirFiles(spec, dir)
	if err != nil {
		return nil, err
	}
	return keys(m), nil
}
