// Package plainyaml decodes YAML into plain Go values for the tests that
// walk or compare lm-eval's task files by meaning rather than by text:
// mappings as map[string]any, sequences as []any, aliases followed, and
// scalars with a tag of their own, such as `!function utils.x`, as the
// text "!function utils.x". The task loader (harness/task) has its own,
// Python-faithful converter; this one is for looking at files.
package plainyaml

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// Unmarshal decodes one YAML document; an empty one is nil.
func Unmarshal(data []byte) (any, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, err
	}
	if n.Kind == 0 {
		return nil, nil
	}
	return Value(&n)
}

// Value is a node's plain value.
func Value(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return Value(n.Content[0])
	case yaml.AliasNode:
		return Value(n.Alias)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := Value(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		l := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := Value(c)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		return l, nil
	}
	if n.Tag != "" && !strings.HasPrefix(n.Tag, "!!") {
		return n.Tag + " " + n.Value, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, fmt.Errorf("line %d: %w", n.Line, err)
	}
	return v, nil
}

// File is one YAML file of a tree with a mapping at its top.
type File struct {
	Path   string // below the tree's root, with the root prefixed
	Data   []byte
	Config map[string]any
}

// Tree reads every .yaml file below root whose top level is a mapping.
// A file that does not decode is an error naming it.
func Tree(root string) ([]File, error) {
	var out []File
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		v, err := Unmarshal(data)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if m, ok := v.(map[string]any); ok {
			out = append(out, File{Path: p, Data: data, Config: m})
		}
		return nil
	})
	return out, err
}
