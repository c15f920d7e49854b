package config

import (
	"fmt"
	"os"

	"gopkg.in/yaml.v3"
)

// ReadFile reads a YAML config file (the keys of lm-eval's
// docs/config_files.md) as a layer.
func ReadFile(path string) (Layer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Layer{}, fmt.Errorf("config file: %w", err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return Layer{}, fmt.Errorf("config file %s: invalid YAML: %w", path, err)
	}
	if m == nil {
		m = map[string]any{}
	}
	if _, ok := m["config"]; ok {
		return Layer{}, fmt.Errorf("config file %s: a config file cannot name another (key \"config\")", path)
	}
	return Layer{Source: "config file " + path, Values: m}, nil
}

// Load builds a run's configuration from its command-line layer: the
// config file that names (--config), then the preset named by the command
// line or the config file (--preset), then precedence preset < config file
// < command line. LMEVAL_LOG_LEVEL sets the log level unless a layer does.
func Load(cmdline Layer) (*Config, error) {
	layers, err := LoadLayers(cmdline)
	if err != nil {
		return nil, err
	}
	return Resolve(layers...)
}

// LoadLayers is Load without the final Resolve: the layers the settings
// come from, lowest precedence first, each file read once. A sharded run
// records them (EncodeLayers), so that lmeval merge resolves the very
// settings every shard ran with.
func LoadLayers(cmdline Layer) ([]Layer, error) {
	layers := []Layer{cmdline}
	// Resolve the command line alone first: it names the config file and
	// may be malformed, which should be reported as such.
	flagsOnly, err := apply([]Layer{cmdline})
	if err != nil {
		return nil, err
	}
	if flagsOnly.ConfigFile != "" {
		f, err := ReadFile(flagsOnly.ConfigFile)
		if err != nil {
			return nil, err
		}
		layers = []Layer{f, cmdline}
	}
	merged, err := apply(layers)
	if err != nil {
		return nil, err
	}
	if merged.Preset != "" {
		p, err := FindPreset(merged.Preset, merged.IncludePaths)
		if err != nil {
			return nil, err
		}
		layers = append([]Layer{p.Layer()}, layers...)
	}
	if lvl, ok, err := EnvLogLevel(); err != nil {
		return nil, err
	} else if ok && !anyHas(layers, "verbosity") {
		layers = append([]Layer{{Source: "LMEVAL_LOG_LEVEL", Values: map[string]any{"verbosity": lvl.String()}}}, layers...)
	}
	return layers, nil
}

func anyHas(layers []Layer, key string) bool {
	for _, l := range layers {
		if _, ok := l.Values[key]; ok {
			return true
		}
	}
	return false
}
