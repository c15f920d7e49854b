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

// Func is a `!function` tag resolved to a registered native function.
type Func struct {
	Dir  string
	Name string
	Fn   any
}

func (f *Func) String() string { return "!function " + f.Name }

// source is one indexed tree of task YAML: the built-in embedded tasks or an
// --include_path directory.
type source struct {
	name string // qualifies paths: "" for the built-in tree, the absolute directory otherwise
	fsys fs.FS
	keep func(name string) bool // nil: index every name
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
	data, err := f.read()
	if err != nil {
		return nil, err
	}
	cfg, err := parseYAML(data, f.funcDir())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
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

// parseYAML decodes one YAML document into Go values with Python's shapes:
// mappings become map[string]any, sequences []any, integers int, floats
// float64, and `!function` tags FuncRef. A mapping given as doc_to_choice
// becomes the list of its values, in order, which is what lm-eval makes of
// it (list(doc_to_choice.values())).
func parseYAML(data []byte, dir string) (map[string]any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlLineFix(err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return map[string]any{}, nil
	}
	v, err := convertNode(doc.Content[0], dir, "")
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

func convertNode(n *yaml.Node, dir, key string) (any, error) {
	if n.Tag == "!function" {
		return FuncRef{Dir: dir, Name: strings.TrimSpace(n.Value)}, nil
	}
	switch n.Kind {
	case yaml.AliasNode:
		return convertNode(n.Alias, dir, key)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return convertNode(n.Content[0], dir, key)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := convertNode(c, dir, "")
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
				v, err := convertNode(vn, dir, "")
				if err != nil {
					return nil, err
				}
				if mm, ok := v.(map[string]any); ok {
					for k, x := range mm {
						if _, set := out[k]; !set {
							out[k] = x
						}
					}
				}
				continue
			}
			var k string
			if err := kn.Decode(&k); err != nil {
				return nil, fmt.Errorf("line %d: key: %w", kn.Line, err)
			}
			v, err := convertNode(vn, dir, k)
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
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		switch x := v.(type) {
		case int64:
			return int(x), nil
		case uint64:
			return int(x), nil
		}
		return v, nil
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

// genKwargsOrderKey holds, inside a parsed generation_kwargs mapping, its
// keys in the YAML's order (a map has none); Config takes it out.
const genKwargsOrderKey = "\x00order"
