// Package config holds the settings of one evaluation run (lm-eval's
// EvaluatorConfig): which model, which tasks with how many shots, batching,
// limits, caching, output and chat formatting.
//
// Settings come in layers, applied in order: a preset, a YAML config file
// (the keys of lm-eval's docs/config_files.md) and the command line. Each
// layer is a map of raw values keyed by setting name; Resolve parses every
// value, naming the flag or file at fault when one is malformed.
package config
