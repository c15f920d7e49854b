package config

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

//go:embed presets/*.yaml
var builtinPresets embed.FS

// A Preset is a named bundle of settings (tasks with shot counts,
// batch_size, limit, ...) defined in YAML. A preset file is a mapping with
// a "preset" key naming it, a "description", and any run settings.
type Preset struct {
	Name        string
	Description string
	// Source is "built-in" or the file the preset came from.
	Source string
	Values map[string]any
}

// Layer returns the preset's settings as the lowest layer of a run.
func (p Preset) Layer() Layer {
	return Layer{Source: "preset " + p.Name + " (" + p.Source + ")", Values: p.Values}
}

// ParsePreset reads one preset from YAML; source names it in errors.
func ParsePreset(data []byte, source string) (Preset, error) {
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return Preset{}, fmt.Errorf("preset %s: %w", source, err)
	}
	name, _ := m["preset"].(string)
	if name == "" {
		return Preset{}, fmt.Errorf("preset %s: no \"preset: NAME\" key", source)
	}
	desc, _ := m["description"].(string)
	values := map[string]any{}
	for k, v := range m {
		switch k {
		case "preset", "description":
			continue
		case "config":
			return Preset{}, fmt.Errorf("preset %s: key %q not allowed in a preset", source, k)
		}
		values[k] = v
	}
	// Check every value now, so a broken preset fails when listed.
	if _, err := apply([]Layer{{Source: "preset " + source, Values: values}}); err != nil {
		return Preset{}, err
	}
	return Preset{Name: name, Description: strings.TrimSpace(desc), Source: source, Values: values}, nil
}

// Presets lists the built-in presets and those found in the include
// paths (YAML files with a top-level "preset:" key, searched recursively),
// sorted by name. A user preset with a built-in's name replaces it.
func Presets(includePaths []string) ([]Preset, error) {
	byName := map[string]Preset{}
	entries, err := fs.Glob(builtinPresets, "presets/*.yaml")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		data, err := builtinPresets.ReadFile(e)
		if err != nil {
			return nil, err
		}
		p, err := ParsePreset(data, "built-in")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path.Base(e), err)
		}
		byName[p.Name] = p
	}
	for _, dir := range includePaths {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if !isPresetYAML(data) {
				return nil
			}
			pr, err := ParsePreset(data, p)
			if err != nil {
				return err
			}
			byName[pr.Name] = pr
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("include path %s: %w", dir, err)
		}
	}
	out := make([]Preset, 0, len(byName))
	for _, p := range byName {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// isPresetYAML tells preset files from task files cheaply, without parsing
// every task YAML of an include path.
func isPresetYAML(data []byte) bool {
	return bytes.HasPrefix(data, []byte("preset:")) || bytes.Contains(data, []byte("\npreset:"))
}

// FindPreset returns the preset called name.
func FindPreset(name string, includePaths []string) (Preset, error) {
	all, err := Presets(includePaths)
	if err != nil {
		return Preset{}, err
	}
	names := make([]string, len(all))
	for i, p := range all {
		if p.Name == name {
			return p, nil
		}
		names[i] = p.Name
	}
	return Preset{}, fmt.Errorf("unknown preset %q (known: %s; see 'lmeval ls presets')", name, strings.Join(names, ", "))
}
