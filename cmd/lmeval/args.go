package main

import (
	"strings"

	"github.com/lmeval/lmeval/harness/config"
)

// lm-eval's argparse accepts flags urfave/cli cannot express directly:
// nargs="+" flags (--tasks a b c, --model_args k=v k2=v2) and nargs="?"
// flags (--apply_chat_template alone or with a template name). normalizeArgs
// rewrites such arguments into the --flag=value form urfave/cli parses, so
// lm-eval command lines work unchanged.

// multiValue flags take every following argument up to the next flag;
// optionalValue flags take the next argument if it is not a flag, and
// default to "true" otherwise. Both come from config.Settings (NArgs), by
// name and short form.
var multiValue, optionalValue = nargsFlags()

func nargsFlags() (many, optional map[string]bool) {
	many, optional = map[string]bool{}, map[string]bool{}
	for _, s := range config.Settings {
		var m map[string]bool
		switch s.NArgs {
		case config.NArgsMany:
			m = many
		case config.NArgsOptional:
			m = optional
		default:
			continue
		}
		m[s.Name] = true
		if s.Alias != "" {
			m[s.Alias] = true
		}
	}
	return many, optional
}

// normalizeArgs rewrites the arguments after a command name. Arguments after
// "--" are left alone.
func normalizeArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, ok := flagName(a)
		if !ok || strings.Contains(a, "=") {
			out = append(out, a)
			continue
		}
		switch {
		case multiValue[name]:
			j := i + 1
			for j < len(args) && !isFlag(args[j]) {
				out = append(out, "--"+name+"="+args[j])
				j++
			}
			if j == i+1 {
				out = append(out, a) // no value: let the parser report it
			}
			i = j - 1
		case optionalValue[name]:
			if i+1 < len(args) && !isFlag(args[i+1]) {
				out = append(out, "--"+name+"="+args[i+1])
				i++
			} else {
				out = append(out, "--"+name+"=true")
			}
		default:
			out = append(out, a)
		}
	}
	return out
}

func isFlag(s string) bool { return len(s) > 1 && s[0] == '-' }

func flagName(s string) (string, bool) {
	if !isFlag(s) {
		return "", false
	}
	name := strings.TrimLeft(s, "-")
	name, _, _ = strings.Cut(name, "=")
	return name, name != ""
}

// withLegacyRun turns lm-eval's command-less form, lmeval --model ...
// --tasks ..., into lmeval run ....
func withLegacyRun(args []string) []string {
	if len(args) < 2 {
		return args
	}
	switch args[1] {
	case "-h", "--help", "-help":
		return args
	}
	if !isFlag(args[1]) {
		return args
	}
	out := append([]string{args[0], "run"}, args[1:]...)
	return out
}

// argparseCommands take lm-eval style arguments.
var argparseCommands = map[string]bool{"run": true, "validate": true, "write-out": true, "serve": true, "pack": true}

// valueFlags are the flags of positional-argument commands that take a
// value; the others are booleans.
var valueFlags = map[string]bool{"include_path": true, "tasks_source": true, "language": true, "tasks": true, "t": true, "preset": true}

// mergeValueFlags are merge's flags; all take a value.
var mergeValueFlags = map[string]bool{"output_path": true, "o": true, "verbosity": true, "v": true}

// compareValueFlags are compare's flags; all take a value.
var compareValueFlags = map[string]bool{"alpha": true, "bootstrap_iters": true, "seed": true, "cluster": true,
	"power": true, "tasks": true, "metrics": true, "output_path": true, "o": true}

// flagsFirst moves flags ahead of positional arguments (urfave/cli stops
// parsing flags at the first positional argument), so that
// "lmeval ls tasks --include_path DIR" works as users expect. valueFlags
// names the flags that take a value.
func flagsFirst(args []string, valueFlags map[string]bool) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		name, ok := flagName(a)
		if !ok {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		if valueFlags[name] && !strings.Contains(a, "=") && i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	return append(flags, pos...)
}

// prepareArgs applies the rewrites to os.Args.
func prepareArgs(args []string) []string {
	args = withLegacyRun(args)
	if len(args) < 2 {
		return args
	}
	switch cmd := args[1]; {
	case argparseCommands[cmd]:
		return append(args[:2:2], normalizeArgs(args[2:])...)
	case cmd == "ls" || cmd == "inspect":
		return append(args[:2:2], flagsFirst(args[2:], valueFlags)...)
	case cmd == "compare":
		return append(args[:2:2], flagsFirst(args[2:], compareValueFlags)...)
	case cmd == "merge":
		return append(args[:2:2], flagsFirst(args[2:], mergeValueFlags)...)
	case cmd == "cache" && len(args) >= 3:
		return append(args[:3:3], flagsFirst(args[3:], valueFlags)...)
	}
	return args
}
