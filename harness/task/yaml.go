package task

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/lmeval/lmeval/python/pyval"

	"gopkg.in/yaml.v3"
)

// FuncRef is an unresolved `!function module.fn` YAML tag. Dir is the
// directory of the file that holds the tag (qualified by its root's name),
// where Python would look for module.py.
type FuncRef struct {
	Dir  string
	Name string
}

func (f FuncRef) String() string { return "!function " + f.Name }

// Func is a `!function` tag resolved to its registered port.
type Func struct {
	Dir  string
	Name string
	Hook *Hook
}

func (f *Func) String() string { return "!function " + f.Name }

// source is one indexed tree of task YAML: the built-in embedded tasks or an
// --include_path directory.
type source struct {
	name string // qualifies paths: "" for the built-in tree, the absolute directory otherwise
	fsys fs.FS
	keep func(name string) bool // nil: index every name

	// parsed holds each file's parse, so that a template included by
	// hundreds of tasks, or a task loaded by several groups, is parsed
	// once (listing lm-eval's tree loads every task and group).
	mu     sync.Mutex
	parsed map[string]parsedFile
}

type parsedFile struct {
	cfg map[string]any
	err error
}

func (s *source) display(p string) string {
	if s.name == "" {
		return p
	}
	return filepath.Join(s.name, filepath.FromSlash(p))
}

func (s *source) dir(p string) string {
	d := path.Dir(p)
	if s.name == "" {
		return d
	}
	if d == "." {
		return filepath.ToSlash(s.name)
	}
	return filepath.ToSlash(s.name) + "/" + d
}

// fileRef names a YAML file inside a source.
type fileRef struct {
	src  *source
	path string // slash-separated, relative to src
	abs  string // set for files outside every source (absolute includes)
}

func (f fileRef) String() string {
	if f.abs != "" {
		return f.abs
	}
	return f.src.display(f.path)
}

func (f fileRef) read() ([]byte, error) {
	if f.abs != "" {
		return os.ReadFile(f.abs)
	}
	return fs.ReadFile(f.src.fsys, f.path)
}

// parse reads and parses f; the result is the caller's to modify.
// Parses of files in a source are kept (errors reading are not).
func (f fileRef) parse() (map[string]any, error) {
	if f.src == nil || f.abs != "" {
		data, err := f.read()
		if err != nil {
			return nil, err
		}
		cfg, err := parseYAML(data, f.funcDir())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		return cfg, nil
	}
	f.src.mu.Lock()
	p, ok := f.src.parsed[f.path]
	f.src.mu.Unlock()
	if !ok {
		data, err := f.read()
		if err != nil {
			return nil, err
		}
		p.cfg, p.err = parseYAML(data, f.funcDir())
		if p.err != nil {
			p.err = fmt.Errorf("%s: %w", f, p.err)
		}
		f.src.mu.Lock()
		if f.src.parsed == nil {
			f.src.parsed = map[string]parsedFile{}
		}
		f.src.parsed[f.path] = p
		f.src.mu.Unlock()
	}
	if p.err != nil {
		return nil, p.err
	}
	return pyval.DeepCopy(p.cfg).(map[string]any), nil
}

func (f fileRef) funcDir() string {
	if f.abs != "" {
		return filepath.ToSlash(filepath.Dir(f.abs))
	}
	return f.src.dir(f.path)
}

// resolve finds an include target relative to the including file, as
// lm-eval's load_yaml_config does (an absolute path is used as is).
func (f fileRef) resolve(inc string) fileRef {
	if filepath.IsAbs(inc) {
		return fileRef{abs: inc}
	}
	if f.abs != "" {
		return fileRef{abs: filepath.Join(filepath.Dir(f.abs), inc)}
	}
	p := path.Clean(path.Join(path.Dir(f.path), filepath.ToSlash(inc)))
	if strings.HasPrefix(p, "../") && f.src.name != "" {
		return fileRef{abs: filepath.Join(f.src.name, filepath.FromSlash(p))}
	}
	return fileRef{src: f.src, path: p}
}

// ErrIncludeCycle reports a file that includes itself, directly or not.
var ErrIncludeCycle = errors.New("include cycle")

// loadYAML reads a task or group file with its includes merged in, as
// lm-eval's load_yaml_config: included files are loaded recursively (the
// first listed wins over later ones) and the including file's own keys
// override them; the merge is shallow (top-level keys).
func loadYAML(f fileRef, stack []string) (map[string]any, error) {
	key := f.String()
	for _, s := range stack {
		if s == key {
			return nil, fmt.Errorf("%s: %w: %s", key, ErrIncludeCycle, strings.Join(append(stack, key), " -> "))
		}
	}
	stack = append(stack, key)
	cfg, err := f.parse()
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
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	merged := map[string]any{}
	for i := len(incs) - 1; i >= 0; i-- {
		sub, err := loadYAML(f.resolve(incs[i]), stack)
		if err != nil {
			return nil, fmt.Errorf("%s: include %s: %w", key, incs[i], err)
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

// includeList reads an include value: a file name or a list of them.
func includeList(inc any) ([]string, error) {
	switch v := inc.(type) {
	case string:
		return []string{v}, nil
	case []any:
		incs := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("include: want file names, got %v", e)
			}
			incs = append(incs, s)
		}
		return incs, nil
	}
	return nil, fmt.Errorf("include: want a file name or a list, got %T", inc)
}

// parseYAML decodes one YAML document into Go values with Python's shapes,
// reading scalars as PyYAML does (pyyaml.go): mappings become
// map[string]any (keys as Python's str of PyYAML's key), sequences []any,
// integers int, floats float64, and `!function` tags FuncRef. A mapping
// given as doc_to_choice becomes the list of its values, in order, which is
// what lm-eval makes of it (list(doc_to_choice.values())).
func parseYAML(data []byte, dir string) (map[string]any, error) {
	c := &converter{dir: dir, data: data}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		// yaml.v3 refuses `\/`, which PyYAML reads as "/".
		fixed, ok := withSlashEscapes(data)
		if !ok || !strings.Contains(err.Error(), "unknown escape") {
			return nil, yamlLineFix(err)
		}
		doc = yaml.Node{}
		if err2 := yaml.Unmarshal(fixed, &doc); err2 != nil {
			return nil, yamlLineFix(err)
		}
		c.data, c.slash = fixed, true
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return map[string]any{}, nil
	}
	v, err := c.convert(doc.Content[0], "")
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		if v == nil {
			return map[string]any{}, nil
		}
		return nil, fmt.Errorf("top level is %T, want a mapping", v)
	}
	return m, nil
}

// yamlParserLine matches yaml.v3's parser errors (not its scanner's),
// whose line number it prints 0-based.
var yamlParserLine = regexp.MustCompile(`^yaml: line (\d+): (did not find expected (node content|key|'-' indicator|',' or '\]'|',' or '\}'|<document start>)|found (duplicate|incompatible|undefined) )`)

// yamlLineFix makes the line of a yaml.v3 parser error 1-based, as its
// scanner errors are: "tag: [a" on line 2 is reported at line 1 otherwise.
func yamlLineFix(err error) error {
	m := yamlParserLine.FindStringSubmatchIndex(err.Error())
	if m == nil {
		return err
	}
	msg := err.Error()
	n, _ := strconv.Atoi(msg[m[2]:m[3]])
	return errors.New(msg[:m[2]] + strconv.Itoa(n+1) + msg[m[3]:])
}

// converter turns one file's yaml.v3 nodes into Python-shaped values.
type converter struct {
	dir   string
	data  []byte // the text yaml.v3 parsed
	lines []int  // byte offset of each line of data, made on first use
	slash bool   // data has slashEscape for the file's `\/`
}

// text is a scalar node's value with the file's own `\/` restored where
// it was no escape (outside double-quoted scalars).
func (c *converter) text(n *yaml.Node) string {
	if c.slash && n.Style&yaml.DoubleQuotedStyle == 0 {
		return strings.ReplaceAll(n.Value, slashEscape, `\/`)
	}
	return n.Value
}

func (c *converter) scalar(n *yaml.Node) (any, error) {
	if n.Style&yaml.DoubleQuotedStyle != 0 {
		if err := checkDoubleQuoted(c.data, c.offset(n.Line, n.Column), n.Line); err != nil {
			return nil, err
		}
	}
	v := n.Value
	n.Value = c.text(n)
	x, err := pyScalar(n)
	n.Value = v
	if err != nil {
		return nil, fmt.Errorf("line %d: %w", n.Line, err)
	}
	return x, nil
}

func (c *converter) convert(n *yaml.Node, key string) (any, error) {
	if n.Tag == "!function" {
		return FuncRef{Dir: c.dir, Name: strings.TrimSpace(c.text(n))}, nil
	}
	switch n.Kind {
	case yaml.AliasNode:
		return c.convert(n.Alias, key)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.convert(n.Content[0], key)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			v, err := c.convert(e, "")
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		var values, pairs []any
		var order []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			if kn.Kind == yaml.ScalarNode && kn.Tag == "!!merge" {
				v, err := c.convert(vn, "")
				if err != nil {
					return nil, err
				}
				// PyYAML's flatten_mapping: the mapping's own keys win,
				// then the merged mappings in the order listed.
				maps := []any{v}
				if l, ok := v.([]any); ok {
					maps = l
				}
				for _, m := range maps {
					mm, ok := m.(map[string]any)
					if !ok {
						return nil, fmt.Errorf("line %d: expected a mapping or a list of mappings for merging", vn.Line)
					}
					for k, x := range mm {
						if _, set := out[k]; !set {
							out[k] = x
						}
					}
				}
				continue
			}
			if kn.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a mapping key must be a scalar", kn.Line)
			}
			kv, err := c.scalar(kn)
			if err != nil {
				return nil, fmt.Errorf("key: %w", err)
			}
			k := pyval.Str(kv)
			v, err := c.convert(vn, k)
			if err != nil {
				return nil, err
			}
			if _, dup := out[k]; !dup {
				order = append(order, k)
			}
			out[k] = v
			values = append(values, v)
			pairs = append(pairs, []any{k, v})
		}
		switch key {
		case "doc_to_choice":
			return values, nil
		case "regex_pattern_to_value":
			// A Python dict whose order matters (bbh's MapRegexFilter
			// tries the patterns in order): its [key, value] pairs.
			return pairs, nil
		}
		if key == "generation_kwargs" {
			// Their order reaches the logged requests; see genKwargsOrder.
			out[genKwargsOrderKey] = order
		}
		return out, nil
	case yaml.ScalarNode:
		return c.scalar(n)
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

// genKwargsOrderKey holds, inside a parsed generation_kwargs mapping, its
// keys in the YAML's order (a map has none); Config takes it out.
const genKwargsOrderKey = "\x00order"
