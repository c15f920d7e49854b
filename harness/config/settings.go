package config

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// A Setting is one run setting, defined once: its lm-eval name (the config
// file key and the --flag), short form, help text, how the command line
// takes its values, its default, where it applies, and how a value is
// applied to a Config. The command line's flags (cmd/lmeval), Keys, the
// parsing of every layer and Defaults all come from Settings; a test checks
// the README's and docs/cli.md's flag tables and Config's JSON keys
// against it.
type Setting struct {
	Name  string
	Alias string // the short flag, "" for none
	Usage string // --help text, without the default
	// Default is the value Defaults starts from ("" for the zero value),
	// parsed as a command-line value is. The help text shows
	// "(default: DefaultDoc)", DefaultDoc being Default unless set.
	Default, DefaultDoc string
	Value               ValueKind
	NArgs               NArgs
	Scope               Scope
	// set applies one layer's value: a string or []string from a command
	// line, a YAML value from a file; nil resets the setting where a YAML
	// null means "unset".
	set func(c *Config, v any) error
}

// ValueKind is how a setting is given on the command line.
type ValueKind int

const (
	Single ValueKind = iota // one value (--flag V); given twice is an error
	List                    // repeatable: every --flag V is kept, in order
	Switch                  // a boolean flag: --flag, --flag=false
)

// NArgs is how lm-eval's argparse takes a flag's values, which lmeval's
// command line rewrites into the --flag=V form (cmd/lmeval/args.go).
type NArgs int

const (
	NArgsOne      NArgs = iota // one value
	NArgsMany                  // nargs="+": every following argument up to the next flag
	NArgsOptional              // nargs="?": the next argument if not a flag, else "true"
)

// Scope says where a setting may be given.
type Scope int

const (
	// Everywhere: the command line (a --flag), config files and presets.
	Everywhere Scope = iota
	// Described: a preset's description; accepted in any layer, not a
	// run setting, no flag.
	Described
	// Ignored: lm-eval settings with no meaning here (trackers, remote
	// code); a config file may hold them, with a warning; no flag.
	Ignored
)

// HelpText is the setting's --help line.
func (s *Setting) HelpText() string {
	d := s.DefaultDoc
	if d == "" {
		d = s.Default
	}
	if d == "" {
		return s.Usage
	}
	return s.Usage + " (default: " + d + ")"
}

// Flag reports whether the setting is a command-line flag.
func (s *Setting) Flag() bool { return s.Scope == Everywhere }

// Settings are every setting, in the command line's --help order.
var Settings = []*Setting{
	{Name: "config", Alias: "C", Usage: "YAML file of settings (lm-eval's config file keys); flags override it",
		set: stringField(func(c *Config) *string { return &c.ConfigFile })},
	{Name: "preset", Usage: "named bundle of tasks and settings (see 'lmeval ls presets'); the config file and flags override it",
		set: stringField(func(c *Config) *string { return &c.Preset })},
	{Name: "model", Alias: "M", Usage: "model backend: llama (alias gguf), local-completions, local-chat-completions or dummy",
		Default: "llama", set: (*Config).setModel},
	{Name: "model_args", Alias: "a", Value: List, NArgs: NArgsMany,
		Usage: "model arguments, 'k=v,k2=v2' or repeated k=v, or a JSON object (pretrained=MODEL.gguf,n_ctx=4096,...)",
		set:   (*Config).setModelArgs},
	{Name: "tasks", Alias: "t", Value: List, NArgs: NArgsMany,
		Usage: "tasks, groups, tags, wildcards or YAML paths, space or comma separated; NAME|SHOTS gives one task its own shot count",
		set:   (*Config).setTasks},
	{Name: "language", Value: List, NArgs: NArgsMany,
		Usage: "run the members of the --tasks groups and tags (or the preset's) in these languages: ISO 639 codes or English names (hin, hi, hindi, hin_Latn); several give one results table per language and a summary",
		set:   (*Config).setLanguages},
	{Name: "num_fewshot", Alias: "f", Usage: "few-shot examples per prompt (overrides the tasks' own)",
		set: (*Config).setNumFewshot},
	// lm-eval defaults to 1; the engine packs sequences by tokens, so auto
	// is the fast default.
	{Name: "batch_size", Alias: "b", Usage: "batch size: an integer, auto, or auto:N", Default: "auto",
		set: (*Config).setBatchSize},
	{Name: "max_batch_size", Usage: "largest batch size --batch_size auto may pick",
		set: (*Config).setMaxBatchSize},
	{Name: "device", Usage: "cpu, gpu, gpu:N, cuda, cuda:N, vulkan, vulkan:N, mps, metal (sets n_gpu_layers and main_gpu)",
		set: (*Config).setDevice},
	{Name: "limit", Alias: "L", Usage: "documents per task: a count, or a fraction below 1 (for testing only)",
		set: (*Config).setLimitValue},
	{Name: "samples", Alias: "E", Usage: "JSON object (or file) of document indices per task, '{\"task\": [0,1]}'; excludes --limit",
		set: (*Config).setSamples},
	{Name: "use_cache", Alias: "c", Usage: "SQLite file caching model responses, so reruns resume",
		set: stringField(func(c *Config) *string { return &c.UseCache })},
	{Name: "cache_requests", NArgs: NArgsOptional, Usage: "cache built requests: true, refresh or delete (bare flag: true)",
		set: (*Config).setCacheRequests},
	{Name: "output_path", Alias: "o", Usage: "directory for results (and samples), or the results .json file",
		set: stringField(func(c *Config) *string { return &c.OutputPath })},
	{Name: "shard", Usage: "evaluate part I of N of the requests (I/N, from 0), or auto: from a Slurm array or Kubernetes Indexed Job; 'lmeval merge' combines the parts",
		set: (*Config).setShard},
	{Name: "log_samples", Alias: "s", Value: Switch, Usage: "write every document's prompt, responses and metrics (needs --output_path)",
		set: boolField(func(c *Config) *bool { return &c.LogSamples })},
	{Name: "predict_only", Alias: "x", Value: Switch, Usage: "generate and save responses, compute no metrics (implies --log_samples)",
		set: boolField(func(c *Config) *bool { return &c.PredictOnly })},
	{Name: "seed", Usage: "seeds random,numpy,torch,fewshot: one integer for all, or 4 comma-separated (None leaves one unset)",
		Default: "0,1234,1234,1234", set: (*Config).setSeed},
	{Name: "gen_kwargs", Value: List, NArgs: NArgsMany,
		Usage: "generation arguments, 'temperature=0,until=[\"\\n\"]' or repeated k=v, overriding the tasks'",
		set:   (*Config).setGenKwargs},
	{Name: "apply_chat_template", NArgs: NArgsOptional,
		Usage: "wrap prompts in the model's chat template, or the named one (bare flag: the model's)",
		set:   (*Config).setChatTemplate},
	{Name: "system_instruction", Usage: "system message to add to every prompt",
		set: stringField(func(c *Config) *string { return &c.SystemInstruction })},
	{Name: "fewshot_as_multiturn", NArgs: NArgsOptional,
		Usage: "few-shot examples as chat turns (on by default with --apply_chat_template; 'false' turns it off)",
		set:   (*Config).setFewshotAsMultiturn},
	{Name: "include_path", Value: List, NArgs: NArgsMany, Usage: "extra directory of task YAML (and presets); repeatable",
		set: (*Config).setIncludePaths},
	{Name: "data_files", Value: List, NArgs: NArgsMany,
		Usage: "a task's documents from local files, no YAML needed: TASK=PATH (the split it evaluates) or TASK:SPLIT=PATH; json, jsonl, csv, tsv, parquet or txt, globs allowed; repeatable",
		set:   (*Config).setDataFiles},
	{Name: "write_out", Alias: "w", Value: Switch, Usage: "print the prompts of the first documents of each task",
		set: boolField(func(c *Config) *bool { return &c.WriteOut })},
	{Name: "show_config", Value: Switch, Usage: "print the full results, task configurations included, at the end",
		set: boolField(func(c *Config) *bool { return &c.ShowConfig })},
	{Name: "summary_path", Usage: "also write the flat summary {task: {\"metric,filter\": value}} (numbers only) to this file, or - for stdout",
		set: stringField(func(c *Config) *string { return &c.SummaryPath })},
	{Name: "metadata", Value: List, NArgs: NArgsMany, Usage: "task metadata, k=v or a JSON object, merged over model_args",
		set: (*Config).setMetadata},
	// A list on the command line, but one value per flag: lm-eval's
	// --hf_hub_log_args takes one string.
	{Name: "hf_hub_log_args", Value: List,
		Usage: "push results/samples to the Hugging Face Hub as lm-eval: hub_results_org=ORG,push_results_to_hub=True,push_samples_to_hub=True,public_repo=False,details_repo_name=,results_repo_name=,hub_repo_name=,gated= (token: HF_TOKEN)",
		set:   func(c *Config, v any) error { return setHubLogArgs(&c.HFHubLogArgs, v) }},
	{Name: "bootstrap_iters", Usage: "bootstrap iterations for standard errors; 0 turns them off", Default: "100000",
		set: (*Config).setBootstrapIters},
	{Name: "verbosity", Alias: "v", Usage: "log level: DEBUG, INFO, WARNING, ERROR, CRITICAL",
		Default: "INFO", DefaultDoc: "LMEVAL_LOG_LEVEL, else INFO", set: (*Config).setVerbosity},
	{Name: "no_progress", Value: Switch, Usage: "no progress bars (they are also off when stderr is not a terminal)",
		set: boolField(func(c *Config) *bool { return &c.NoProgress })},
	{Name: "confirm_run_unsafe_code", Value: Switch,
		Usage: "allow tasks marked unsafe_code (humaneval, mbpp, ...) to run the model's programs, each in a sandboxed python3",
		set:   boolField(func(c *Config) *bool { return &c.ConfirmRunUnsafeCode })},
	{Name: "confirm_run_unconfined_code", Value: Switch,
		Usage: "run those programs even where this system cannot confine them (no Landlock, no user namespaces), with your user's access to your files",
		set:   boolField(func(c *Config) *bool { return &c.ConfirmRunUnconfinedCode })},
	{Name: "tasks_source",
		Usage:      "lm-eval task tree: a directory (checkout, or an installed lm_eval/tasks), an archive URL, REPO_URL@COMMIT, or none (built-in tasks and include paths only, nothing downloaded)",
		DefaultDoc: "$LMEVAL_TASKS_SOURCE, else the pinned lm-eval commit, downloaded once",
		set:        stringField(func(c *Config) *string { return &c.TasksSource })},

	// A preset's description documents it; it is not a run setting.
	{Name: "description", Scope: Described, set: func(*Config, any) error { return nil }},
	{Name: "wandb_args", Scope: Ignored},
	{Name: "wandb_config_args", Scope: Ignored},
	{Name: "trackio_args", Scope: Ignored},
	{Name: "trust_remote_code", Scope: Ignored},
	{Name: "check_integrity", Scope: Ignored},
}

// Keys lists every setting a layer may hold (the Settings that are run
// settings, in order).
var Keys = func() []string {
	var keys []string
	for _, s := range Settings {
		if s.Scope == Everywhere {
			keys = append(keys, s.Name)
		}
	}
	return keys
}()

var settingsByName = func() map[string]*Setting {
	m := make(map[string]*Setting, len(Settings))
	for _, s := range Settings {
		m[s.Name] = s
	}
	return m
}()

// Lookup returns the setting named name (its lm-eval name, not a short
// form).
func Lookup(name string) (*Setting, bool) {
	s, ok := settingsByName[name]
	return s, ok
}

// set applies one value of the setting key.
func (c *Config) set(key string, v any) error {
	s, ok := settingsByName[key]
	switch {
	case !ok:
		return fmt.Errorf("unknown setting (known: %s)", strings.Join(Keys, ", "))
	case s.Scope == Ignored:
		slog.Warn("setting not supported by lmeval, ignored", "key", key)
		return nil
	}
	return s.set(c, v)
}

// Setters shared by many settings.

func stringField(field func(*Config) *string) func(*Config, any) error {
	return func(c *Config, v any) error { return setString(field(c), v) }
}

func boolField(field func(*Config) *bool) func(*Config, any) error {
	return func(c *Config, v any) error { return setBool(field(c), v) }
}

// One setter per setting that needs more than a string or a boolean.

func (c *Config) setModel(v any) error {
	s, err := asString(v)
	if err != nil {
		return err
	}
	c.Model = s
	return nil
}

func (c *Config) setModelArgs(v any) error {
	m, err := asModelArgs(v)
	if err != nil {
		return err
	}
	maps.Copy(c.ModelArgs, m)
	return nil
}

func (c *Config) setTasks(v any) error {
	ss, err := asStrings(v)
	if err != nil {
		return err
	}
	t, err := ParseTaskList(ss...)
	if err != nil {
		return err
	}
	c.Tasks = t
	return nil
}

func (c *Config) setLanguages(v any) error {
	ss, err := asStrings(v)
	if err != nil {
		return err
	}
	var out []string
	for _, s := range ss {
		out = append(out, strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })...)
	}
	c.Languages = out
	return nil
}

func (c *Config) setNumFewshot(v any) error {
	if v == nil {
		c.NumFewshot = nil
		return nil
	}
	n, err := asInt(v, "a non-negative integer")
	if err != nil {
		return err
	}
	if n < 0 {
		return fmt.Errorf("invalid value %d: want a non-negative integer", n)
	}
	c.NumFewshot = &n
	return nil
}

func (c *Config) setBatchSize(v any) error {
	s, err := asString(v)
	if err != nil {
		return err
	}
	b, err := ParseBatchSize(s)
	if err != nil {
		return err
	}
	c.BatchSize = b
	return nil
}

func (c *Config) setMaxBatchSize(v any) error {
	if v == nil {
		c.MaxBatchSize = 0
		return nil
	}
	n, err := asInt(v, "a positive integer")
	if err != nil {
		return err
	}
	if n < 1 {
		return fmt.Errorf("invalid value %d: want a positive integer", n)
	}
	c.MaxBatchSize = n
	return nil
}

func (c *Config) setDevice(v any) error {
	if v == nil {
		c.Device = Device{}
		return nil
	}
	s, err := asString(v)
	if err != nil {
		return err
	}
	d, err := ParseDevice(s)
	if err != nil {
		return err
	}
	c.Device = d
	return nil
}

func (c *Config) setLimitValue(v any) error {
	switch x := v.(type) {
	case nil:
		c.Limit = Limit{}
		return nil
	case int:
		return c.setLimit(float64(x), fmt.Sprint(x))
	case int64:
		return c.setLimit(float64(x), fmt.Sprint(x))
	case float64:
		return c.setLimit(x, fmt.Sprint(x))
	}
	s, err := asString(v)
	if err != nil {
		return err
	}
	l, err := ParseLimit(s)
	if err != nil {
		return err
	}
	c.Limit = l
	return nil
}

func (c *Config) setSamples(v any) error {
	var s string
	switch x := v.(type) {
	case nil:
		c.Samples = nil
		return nil
	case map[string]any:
		b, _ := json.Marshal(x)
		s = string(b)
	default:
		var err error
		if s, err = asString(v); err != nil {
			return err
		}
	}
	m, err := ParseSamples(s)
	if err != nil {
		return err
	}
	c.Samples = m
	return nil
}

func (c *Config) setShard(v any) error {
	if v == nil {
		c.Shard = Shard{}
		return nil
	}
	s, err := asString(v)
	if err != nil {
		return err
	}
	sh, err := ParseShard(s)
	if err != nil {
		return err
	}
	c.Shard = sh
	return nil
}

func (c *Config) setCacheRequests(v any) error {
	if b, ok := v.(bool); ok {
		v = strconv.FormatBool(b)
	}
	s, err := asString(v)
	if err != nil {
		return err
	}
	r, err := ParseCacheRequests(s)
	if err != nil {
		return err
	}
	c.CacheRequests = r
	return nil
}

func (c *Config) setSeed(v any) error {
	var s string
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			if e == nil {
				parts[i] = "None"
			} else {
				parts[i] = fmt.Sprint(e)
			}
		}
		s = strings.Join(parts, ",")
	default:
		var err error
		if s, err = asString(v); err != nil {
			return err
		}
	}
	seeds, err := ParseSeeds(s)
	if err != nil {
		return err
	}
	c.Seeds = seeds
	return nil
}

func (c *Config) setGenKwargs(v any) error {
	m, err := asDict(v)
	if err != nil {
		return err
	}
	if c.GenKwargs == nil {
		c.GenKwargs = map[string]any{}
	}
	maps.Copy(c.GenKwargs, m)
	for _, k := range dictOrder(v, m) {
		if !slices.Contains(c.GenKwargsOrder, k) {
			c.GenKwargsOrder = append(c.GenKwargsOrder, k)
		}
	}
	return nil
}

func (c *Config) setChatTemplate(v any) error {
	if b, ok := v.(bool); ok {
		c.ChatTemplate = ChatTemplate{Enabled: b}
		return nil
	}
	s, err := asString(v)
	if err != nil {
		return err
	}
	c.ChatTemplate = ParseChatTemplate(s)
	return nil
}

func (c *Config) setFewshotAsMultiturn(v any) error {
	if v == nil {
		c.fewshotAsMultiturnSet = false
		return nil
	}
	c.fewshotAsMultiturnSet = true
	return setBool(&c.FewshotAsMultiturn, v)
}

func (c *Config) setIncludePaths(v any) error {
	ss, err := asStrings(v)
	if err != nil {
		return err
	}
	c.IncludePaths = ss
	return nil
}

// setDataFiles reads --data_files entries (TASK=PATH, TASK:SPLIT=PATH)
// or a config file's mapping (task: path, list, or {split: path or
// list}), adding to what earlier layers gave.
func (c *Config) setDataFiles(v any) error {
	if v == nil {
		c.DataFiles = nil
		return nil
	}
	add := func(task, split string, paths []string) error {
		if task == "" || len(paths) == 0 {
			return fmt.Errorf("want TASK=PATH or TASK:SPLIT=PATH")
		}
		for _, p := range paths {
			if p == "" {
				return fmt.Errorf("task %s: an empty path", task)
			}
		}
		if c.DataFiles == nil {
			c.DataFiles = map[string]map[string][]string{}
		}
		if c.DataFiles[task] == nil {
			c.DataFiles[task] = map[string][]string{}
		}
		c.DataFiles[task][split] = append(c.DataFiles[task][split], paths...)
		return nil
	}
	if m, ok := v.(map[string]any); ok {
		for task, files := range m {
			if splits, ok := files.(map[string]any); ok {
				for split, f := range splits {
					paths, err := asStrings(f)
					if err != nil {
						return fmt.Errorf("task %s split %s: %w", task, split, err)
					}
					if err := add(task, split, paths); err != nil {
						return err
					}
				}
				continue
			}
			paths, err := asStrings(files)
			if err != nil {
				return fmt.Errorf("task %s: %w", task, err)
			}
			if err := add(task, "", paths); err != nil {
				return err
			}
		}
		return nil
	}
	entries, err := asStrings(v)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name, path, ok := strings.Cut(e, "=")
		task, split, _ := strings.Cut(name, ":")
		if !ok || path == "" {
			return fmt.Errorf("invalid value %q: want TASK=PATH or TASK:SPLIT=PATH", e)
		}
		if err := add(task, split, []string{path}); err != nil {
			return fmt.Errorf("invalid value %q: %w", e, err)
		}
	}
	return nil
}

func (c *Config) setMetadata(v any) error {
	m, err := asDict(v)
	if err != nil {
		return err
	}
	if c.Metadata == nil {
		c.Metadata = map[string]any{}
	}
	maps.Copy(c.Metadata, m)
	return nil
}

func (c *Config) setBootstrapIters(v any) error {
	n, err := asInt(v, "a non-negative integer")
	if err != nil {
		return err
	}
	if n < 0 {
		return fmt.Errorf("invalid value %d: want a non-negative integer (0 turns stderr off)", n)
	}
	c.BootstrapIters = n
	return nil
}

func (c *Config) setVerbosity(v any) error {
	s, err := asString(v)
	if err != nil {
		return err
	}
	lvl, err := ParseLogLevel(s)
	if err != nil {
		return err
	}
	c.LogLevel = lvl
	return nil
}
