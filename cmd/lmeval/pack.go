package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/benchmarks"
	"github.com/lmeval/lmeval/harness"
	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/harness/dataset"
	"github.com/lmeval/lmeval/harness/progress"
	"github.com/lmeval/lmeval/hub"
	"github.com/lmeval/lmeval/internal/airgap"
	"github.com/lmeval/lmeval/internal/units"
)

// packFlags are pack's own flags, beside the run's.
var packFlags = []cli.Flag{
	&cli.StringFlag{Name: "archive", Required: true, Usage: "the archive to write (FILE.tar.gz)"},
	&cli.BoolFlag{Name: "no_model", Usage: "leave the model out (a Hub reference in --model_args pretrained=... is packed by default)"},
}

func packCommand() *cli.Command {
	return &cli.Command{
		Name:  "pack",
		Usage: "fetch everything a run needs (lm-eval's task tree, the tasks' datasets, a Hub model) and pack it into one archive for a machine without the network",
		UsageText: "lmeval pack --archive FILE.tar.gz [--no_model] [run flags: --model_args pretrained=hf://ORG/REPO:QUANT --tasks TASK... --num_fewshot N ...]\n" +
			"then, on the offline machine: lmeval unpack FILE.tar.gz, and the same run",
		Flags:  append(runFlags(), packFlags...),
		Action: packAction,
	}
}

func unpackCommand() *cli.Command {
	return &cli.Command{
		Name:      "unpack",
		Usage:     "put an archive of 'lmeval pack' into this machine's caches (Hugging Face hub cache, lmeval's task trees)",
		UsageText: "lmeval unpack FILE.tar.gz",
		Action:    unpackAction,
	}
}

// packRoots are this machine's caches an archive goes from or to.
func packRoots() airgap.Roots {
	c := hub.New(hub.Options{})
	return airgap.Roots{Hub: c.CacheDir(), Downloads: c.DownloadsDir(), Tasks: cache.DefaultPath("tasks")}
}

func packAction(c *cli.Context) error {
	cfg, err := loadRunConfig(c)
	if err != nil {
		return err
	}
	archive := c.String("archive")
	ctx := progress.NewContext(c.Context, progress.ForStderr(cfg.NoProgress))
	d := progress.ForStderr(cfg.NoProgress)
	roots := packRoots()
	p := airgap.NewPacker(roots)
	var notPacked []string

	// The tasks, and lm-eval's task tree when they need it.
	names := make([]string, len(cfg.Tasks))
	for i, t := range cfg.Tasks {
		names[i] = t.Name
	}
	ropts := harness.RegistryOptions{Builtin: benchmarks.FS(), Include: cfg.IncludePaths, Metadata: cfg.Metadata, TasksSource: cfg.TasksSource, Want: names}
	if d.Enabled() {
		ropts.Tree.Progress = os.Stderr
	}
	reg, tree, err := harness.NewRegistry(ctx, ropts)
	if err != nil {
		return err
	}
	plan, err := harness.NewPlan(cfg, harness.WithRegistry(reg))
	if err != nil {
		return err
	}
	if tree != nil {
		if tree.Downloaded.IsZero() {
			notPacked = append(notPacked, "lm-eval's task tree "+tree.Dir+" (--tasks_source)")
		} else if err := p.AddTree(filepath.Dir(filepath.Dir(tree.Dir))); err != nil {
			return err
		}
	}
	// The datasets: every split the run reads, through a loader that
	// records the cache files it uses.
	dopts := dataset.Options{OnCacheFile: p.Add}
	if d.Enabled() {
		dopts.Progress = os.Stderr
	}
	loader, columns := harness.DatasetLoader(dopts)
	if err := plan.LoadData(ctx, harness.WithLoader(loader), harness.WithColumns(columns)); err != nil {
		return err
	}
	// The model, when it comes from the Hub.
	if ref := cfg.ModelArgs["pretrained"]; ref != "" {
		_, fromHub := hub.ParseModelRef(ref)
		switch {
		case !fromHub:
			notPacked = append(notPacked, "the model "+ref)
		case c.Bool("no_model"):
			notPacked = append(notPacked, "the model "+ref+" (--no_model)")
		default:
			if _, err := hub.New(hub.Options{OnCacheFile: p.Add, Progress: d.Writer()}).ResolveModel(ctx, ref); err != nil {
				return fmt.Errorf("--model_args pretrained=%s: %w", ref, err)
			}
		}
	}
	for _, dir := range cfg.IncludePaths {
		notPacked = append(notPacked, "--include_path "+dir+" (and the local files its tasks read)")
	}
	for _, t := range slices.Sorted(maps.Keys(cfg.DataFiles)) {
		notPacked = append(notPacked, "--data_files of "+t)
	}

	m, err := writeArchive(archive, p, airgap.Manifest{Created: time.Now().UTC(), Lmeval: Version, Command: runCommandLine(c), NotPacked: notPacked})
	if err != nil {
		return err
	}
	w := c.App.Writer
	fmt.Fprintf(w, "packed %d files (%s) into %s\n", m.Files, units.Bytes(m.Bytes), archive)
	fmt.Fprintf(w, "on the machine without the network:\n  lmeval unpack %s\n  HF_HUB_OFFLINE=1 lmeval run %s\n", shellQuote(archive), shellJoin(m.Command))
	if len(notPacked) > 0 {
		fmt.Fprintf(w, "not packed (the run reads them from this machine; copy them to the same paths there):\n")
		for _, n := range notPacked {
			fmt.Fprintf(w, "  %s\n", n)
		}
	}
	return nil
}

// writeArchive writes the archive through a temporary file beside it.
func writeArchive(path string, p *airgap.Packer, m airgap.Manifest) (airgap.Manifest, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return m, fmt.Errorf("--archive: %w", err)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".lmeval-pack-*")
	if err != nil {
		return m, fmt.Errorf("--archive: %w", err)
	}
	m, err = p.Write(f, m)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return m, fmt.Errorf("--archive %s: %w", path, err)
	}
	return m, nil
}

func unpackAction(c *cli.Context) error {
	if c.Args().Len() != 1 {
		return errors.New("unpack takes one archive: lmeval unpack FILE.tar.gz")
	}
	path := c.Args().First()
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	roots := packRoots()
	m, st, err := airgap.Unpack(f, roots)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	w := c.App.Writer
	fmt.Fprintf(w, "unpacked %d files (%s; %d already there) from %s, packed %s by lmeval %s\n",
		st.Files, units.Bytes(st.Bytes), st.Skipped, path, m.Created.Format(time.DateTime), m.Lmeval)
	fmt.Fprintf(w, "  Hugging Face cache: %s\n  lmeval's task trees: %s\n", roots.Hub, roots.Tasks)
	fmt.Fprintf(w, "run, without the network:\n  HF_HUB_OFFLINE=1 lmeval run %s\n", shellJoin(m.Command))
	if len(m.NotPacked) > 0 {
		fmt.Fprintf(w, "it also reads, from the packing machine's files (copy them to the same paths):\n")
		for _, n := range m.NotPacked {
			fmt.Fprintf(w, "  %s\n", n)
		}
	}
	return nil
}

// runCommandLine is the run's flags as given to pack, pack's own left
// out: the command for the offline machine.
func runCommandLine(c *cli.Context) []string {
	var out []string
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if !c.IsSet(name) || slices.ContainsFunc(packFlags, func(p cli.Flag) bool { return p.Names()[0] == name }) {
			continue
		}
		switch f.(type) {
		case *cli.StringSliceFlag:
			out = append(out, "--"+name)
			out = append(out, c.StringSlice(name)...)
		case *cli.BoolFlag:
			if c.Bool(name) {
				out = append(out, "--"+name)
			} else {
				out = append(out, "--"+name+"=false")
			}
		default:
			out = append(out, "--"+name, c.String(name))
		}
	}
	return out
}

// shellQuote quotes s for a POSIX shell where it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=/.,:@+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
