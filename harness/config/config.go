package config

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Config is every setting of one run. Its JSON form uses lm-eval's key
// names.
type Config struct {
	Model     string            `json:"model"`
	ModelArgs map[string]string `json:"model_args"`
	Tasks     []TaskSpec        `json:"-"`
	// Languages keep the tasks' members in these languages (ISO 639
	// codes or English names, checked by the language index).
	Languages []string `json:"language,omitempty"`
	// NumFewshot is the run-wide shot count; nil keeps each task's own.
	NumFewshot   *int      `json:"num_fewshot"`
	BatchSize    BatchSize `json:"batch_size"`
	MaxBatchSize int       `json:"max_batch_size,omitempty"`
	Device       Device    `json:"-"`
	Limit        Limit     `json:"limit"`
	// Samples selects documents by index per task (exclusive with Limit).
	Samples       map[string][]int `json:"samples,omitempty"`
	UseCache      string           `json:"use_cache,omitempty"`
	CacheRequests CacheRequests    `json:"cache_requests,omitempty"`
	OutputPath    string           `json:"output_path,omitempty"`
	LogSamples    bool             `json:"log_samples"`
	PredictOnly   bool             `json:"predict_only"`
	Seeds         Seeds            `json:"seed"`
	GenKwargs     map[string]any   `json:"gen_kwargs,omitempty"`
	// GenKwargsOrder is GenKwargs' keys in the order given (lm-eval's
	// dict order; a config file's mapping has none and is sorted).
	GenKwargsOrder     []string     `json:"-"`
	ChatTemplate       ChatTemplate `json:"apply_chat_template"`
	SystemInstruction  string       `json:"system_instruction,omitempty"`
	FewshotAsMultiturn bool         `json:"fewshot_as_multiturn"`
	IncludePaths       []string     `json:"include_path,omitempty"`
	// DataFiles are local files for tasks' splits (--data_files): task
	// -> split ("" for the split it evaluates) -> paths or globs.
	DataFiles  map[string]map[string][]string `json:"data_files,omitempty"`
	WriteOut   bool                           `json:"write_out"`
	ShowConfig bool                           `json:"show_config"`
	// Metadata is passed to tasks; as in lm-eval it starts as a copy of
	// the model_args, overridden by --metadata.
	Metadata       map[string]any `json:"metadata,omitempty"`
	BootstrapIters int            `json:"bootstrap_iters"`
	LogLevel       slog.Level     `json:"-"`
	NoProgress     bool           `json:"no_progress"`
	Preset         string         `json:"preset,omitempty"`
	ConfigFile     string         `json:"config,omitempty"`
	// SummaryPath receives the flat {task: {"metric,filter": value}}
	// summary ("-": stdout); "" writes none.
	SummaryPath string `json:"summary_path,omitempty"`
	// HFHubLogArgs publish the results and samples on the Hugging Face Hub
	// (--hf_hub_log_args).
	HFHubLogArgs HubLogArgs `json:"hf_hub_log_args"`
	// ConfirmRunUnsafeCode allows tasks marked unsafe_code (humaneval,
	// mbpp, ...) to run the model's programs (lm-eval's
	// --confirm_run_unsafe_code).
	ConfirmRunUnsafeCode bool `json:"confirm_run_unsafe_code,omitempty"`
	// ConfirmRunUnconfinedCode runs those programs even where the system
	// cannot confine them (--confirm_run_unconfined_code).
	ConfirmRunUnconfinedCode bool `json:"confirm_run_unconfined_code,omitempty"`
	// TasksSource is where lm-eval's task tree comes from (--tasks_source;
	// "" means $LMEVAL_TASKS_SOURCE, else the pinned download).
	TasksSource string `json:"tasks_source,omitempty"`
	// Shard is the part of the requests this run evaluates (--shard);
	// unset, all of them.
	Shard Shard `json:"shard,omitempty"`

	fewshotAsMultiturnSet bool
	deviceArgs            map[string]string // model args implied by Device, applied in finish
}

// FewshotAsMultiturnValue is fewshot_as_multiturn as lm-eval records it:
// nil (None) when neither given nor implied by --apply_chat_template.
func (c *Config) FewshotAsMultiturnValue() *bool {
	if !c.ChatTemplate.Enabled && !c.fewshotAsMultiturnSet {
		return nil
	}
	v := c.FewshotAsMultiturn
	return &v
}

// MarshalJSON adds the forms that do not map field-for-field.
func (c Config) MarshalJSON() ([]byte, error) {
	type plain Config
	tasks := make([]string, len(c.Tasks))
	for i, t := range c.Tasks {
		tasks[i] = t.String()
	}
	return json.Marshal(struct {
		plain
		Tasks     []string `json:"tasks"`
		Device    string   `json:"device,omitempty"`
		Verbosity string   `json:"verbosity"`
	}{plain(c), tasks, c.Device.Name, c.LogLevel.String()})
}

// Defaults are lm-eval's defaults, with lmeval's model backend: every
// Setting's Default, parsed as a command-line value.
func Defaults() Config {
	c := Config{ModelArgs: map[string]string{}}
	for _, s := range Settings {
		if s.Default == "" {
			continue
		}
		if err := s.set(&c, s.Default); err != nil {
			panic(fmt.Sprintf("config: default of %s: %v", s.Name, err)) // a broken table; TestDefaults catches it
		}
	}
	return c
}

// A Layer is one source of settings: raw values keyed by setting name
// (lm-eval's names: "model_args", "num_fewshot", ...). Values are strings
// or []string from a command line, or YAML values from a file.
type Layer struct {
	// Source names the layer in errors: "command line", "config file x.yaml".
	Source string
	// Flags makes errors name settings as --flags.
	Flags  bool
	Values map[string]any
}

func (l Layer) where(key string) string {
	if l.Flags {
		return "--" + key
	}
	return fmt.Sprintf("%s: %s", l.Source, key)
}

// Resolve applies layers over the defaults, later layers overriding earlier
// ones. Dictionary settings (model_args, gen_kwargs, metadata) merge key by
// key; every other setting is replaced. It then checks the settings
// against each other, as lm-eval does.
func Resolve(layers ...Layer) (*Config, error) {
	c, err := apply(layers)
	if err != nil {
		return nil, err
	}
	if err := c.finish(); err != nil {
		return nil, err
	}
	return c, nil
}

// apply sets every layer's values without the cross-setting checks.
func apply(layers []Layer) (*Config, error) {
	c := Defaults()
	for _, l := range layers {
		keys := slices.Sorted(maps.Keys(l.Values))
		for _, k := range keys {
			if err := c.set(k, l.Values[k]); err != nil {
				return nil, fmt.Errorf("%s: %w", l.where(k), err)
			}
		}
	}
	return &c, nil
}

func (c *Config) setLimit(v float64, s string) error {
	if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("invalid limit %s: want %s", s, limitForms)
	}
	l, err := limitFromFloat(v, s)
	if err != nil {
		return err
	}
	c.Limit = l
	return nil
}

// finish applies lm-eval's cross-setting rules.
func (c *Config) finish() error {
	if c.PredictOnly {
		c.LogSamples = true
	}
	if c.LogSamples && c.OutputPath == "" {
		if c.PredictOnly {
			return fmt.Errorf("--predict_only needs --output_path (where the predictions go)")
		}
		return fmt.Errorf("--log_samples needs --output_path (where the samples go)")
	}
	if c.Shard.IsSet() && c.OutputPath == "" {
		return fmt.Errorf("--shard needs --output_path (where the shard's answers go, for lmeval merge)")
	}
	if len(c.Samples) > 0 && c.Limit.IsSet() {
		return fmt.Errorf("--samples and --limit exclude each other: give one")
	}
	if c.HFHubLogArgs.Push() && c.OutputPath == "" {
		// lm-eval's tracker pushes the files it saved, and saves none
		// without an output path.
		return fmt.Errorf("--hf_hub_log_args push_results_to_hub/push_samples_to_hub needs --output_path (the files pushed are those written there)")
	}
	if c.FewshotAsMultiturn && !c.ChatTemplate.Enabled {
		return fmt.Errorf("--fewshot_as_multiturn needs --apply_chat_template")
	}
	// lm-eval turns multi-turn few-shot on with the chat template unless
	// told otherwise.
	if c.ChatTemplate.Enabled && !c.fewshotAsMultiturnSet {
		c.FewshotAsMultiturn = true
	}
	// The device decides GPU offload unless model_args say it explicitly.
	for k, v := range c.Device.ModelArgs() {
		if _, ok := c.ModelArgs[k]; !ok {
			c.ModelArgs[k] = v
		}
	}
	meta := map[string]any{}
	for k, v := range c.ModelArgs {
		meta[k] = CLIValue(v)
	}
	maps.Copy(meta, c.Metadata)
	c.Metadata = meta
	return nil
}

// Validate checks what a run needs beyond well-formed settings.
func (c *Config) Validate() error {
	if len(c.Tasks) == 0 {
		return fmt.Errorf("no tasks: give --tasks (see 'lmeval ls tasks') or --preset (see 'lmeval ls presets')")
	}
	if c.Model == "" {
		return fmt.Errorf("no model: give --model")
	}
	return nil
}

// ModelArgsString renders the model_args as lm-eval records them in
// results: k=v pairs joined by commas, sorted by key.
func (c *Config) ModelArgsString() string {
	keys := make([]string, 0, len(c.ModelArgs))
	for k := range c.ModelArgs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + c.ModelArgs[k]
	}
	return strings.Join(parts, ",")
}

// EnvLogLevel reads LMEVAL_LOG_LEVEL; ok is false when it is unset.
func EnvLogLevel() (lvl slog.Level, ok bool, err error) {
	s := os.Getenv("LMEVAL_LOG_LEVEL")
	if s == "" {
		return slog.LevelInfo, false, nil
	}
	lvl, err = ParseLogLevel(s)
	if err != nil {
		return lvl, true, fmt.Errorf("LMEVAL_LOG_LEVEL: %w", err)
	}
	return lvl, true, nil
}

func asString(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case []string:
		if len(x) == 1 {
			return x[0], nil
		}
		return "", fmt.Errorf("given %d times; want one value", len(x))
	case int, int64, float64, bool:
		return fmt.Sprint(x), nil
	}
	return "", fmt.Errorf("want a single value, got %T", v)
}

func asStrings(v any) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return []string{x}, nil
	case []string:
		return x, nil
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			s, err := asString(e)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a string or a list of strings, got %T", v)
}

func asInt(v any, forms string) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case float64:
		if x == math.Trunc(x) {
			return int(x), nil
		}
	}
	s, err := asString(v)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("invalid value %q: want %s", s, forms)
	}
	return n, nil
}

func setString(dst *string, v any) error {
	if v == nil {
		*dst = ""
		return nil
	}
	s, err := asString(v)
	if err != nil {
		return err
	}
	*dst = s
	return nil
}

func setBool(dst *bool, v any) error {
	if b, ok := v.(bool); ok {
		*dst = b
		return nil
	}
	s, err := asString(v)
	if err != nil {
		return err
	}
	b, err := ParseBool(s)
	if err != nil {
		return err
	}
	*dst = b
	return nil
}

// asDict merges one or more "k=v,..." strings, JSON objects or a YAML
// mapping into typed values.
func asDict(v any) (map[string]any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return x, nil
	}
	ss, err := asStrings(v)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, s := range ss {
		m, err := ParseKeyValues(s)
		if err != nil {
			return nil, err
		}
		maps.Copy(out, m)
	}
	return out, nil
}

func asModelArgs(v any) (map[string]string, error) {
	if m, ok := v.(map[string]any); ok {
		out := make(map[string]string, len(m))
		for k, e := range m {
			out[k] = ArgString(e)
		}
		return out, nil
	}
	ss, err := asStrings(v)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, s := range ss {
		m, err := ParseModelArgs(s)
		if err != nil {
			return nil, err
		}
		maps.Copy(out, m)
	}
	return out, nil
}
