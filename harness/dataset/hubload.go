package dataset

import (
	"github.com/lmeval/lmeval/python/pyval"

	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/lmeval/lmeval/hub"
)

// revisionOf is dataset_kwargs.revision ("" when unset).
func revisionOf(spec Spec) string {
	r, _ := spec.Kwargs["revision"].(string)
	return r
}

// useConversion reports whether the Hub's Parquet conversion can stand for
// the dataset: it is made from the main branch and from the dataset's own
// configs, so not when a revision is pinned or data_files/data_dir pick
// files.
func useConversion(spec Spec) bool {
	rev := revisionOf(spec)
	_, df := spec.Kwargs["data_files"]
	_, dd := spec.Kwargs["data_dir"]
	return (rev == "" || rev == "main") && !df && !dd
}

// friendly rewrites the Hub client's errors into what a user needs to know.
func friendly(spec Spec, err error) error {
	switch {
	case errors.Is(err, hub.ErrGated):
		return fmt.Errorf("dataset %s is gated: set HF_TOKEN to a token with access (%w)", spec.Path, err)
	case errors.Is(err, hub.ErrNotFound) && strings.Contains(err.Error(), "RepoNotFound"):
		return fmt.Errorf("dataset %s not found on the Hub, nor as a local directory (if it is private, set HF_TOKEN) (%w)", spec.Path, err)
	}
	return err
}

// conversionConfig picks the config of the Parquet conversion to read.
func conversionConfig(spec Spec, configs map[string][]string) (string, error) {
	if spec.Name != "" {
		if _, ok := configs[spec.Name]; !ok {
			return "", fmt.Errorf("no config %q in the Hub's Parquet conversion (configs: %s): %w", spec.Name, strings.Join(keys(configs), ", "), hub.ErrNotFound)
		}
		return spec.Name, nil
	}
	if _, ok := configs["default"]; ok {
		return "default", nil
	}
	if len(configs) == 1 {
		return keys(configs)[0], nil
	}
	return "", fmt.Errorf("the dataset has several configs: set dataset_name to one of %s", strings.Join(keys(configs), ", "))
}

func loadHub(ctx context.Context, spec Spec, split string, opts Options) ([]map[string]any, *pyval.Columns, error) {
	c := opts.client()
	var convErr error
	if useConversion(spec) {
		files, err := conversionFiles(ctx, c, spec, split)
		if err == nil {
			return readFiles(files, formatParquet, nil)
		}
		// Not converted, or not cached offline or with the Hub out of
		// reach: the repository's own files may be.
		if !errors.Is(err, hub.ErrNotFound) && !errors.Is(err, hub.ErrOffline) && !hub.Unreachable(err) {
			return nil, nil, friendly(spec, err)
		}
		convErr = err
	}
	m, err := repoFiles(ctx, c, spec)
	if err != nil {
		return nil, nil, combine(spec, convErr, err)
	}
	names, ok := m.files[split]
	if !ok {
		return nil, nil, fmt.Errorf("no split %q (splits: %s): %w", split, strings.Join(keys(m.files), ", "), ErrNoSplit)
	}
	paths := make([]string, len(names))
	for i, n := range names {
		if paths[i], err = c.Download(ctx, m.repo, m.commit, n); err != nil {
			return nil, nil, friendly(spec, err)
		}
	}
	return readFiles(paths, "", spec.Kwargs)
}

// combine reports the failure of both ways of reading a Hub dataset: its
// Parquet conversion (convErr, nil when not tried) and its own files.
func combine(spec Spec, convErr, repoErr error) error {
	if convErr == nil || strings.Contains(convErr.Error(), "RepoNotFound") || errors.Is(repoErr, hub.ErrGated) {
		return friendly(spec, repoErr)
	}
	if errors.Is(repoErr, errScriptOnly) {
		return fmt.Errorf("%w, and the Hub has no Parquet conversion of it (%w)", repoErr, convErr)
	}
	return fmt.Errorf("Hub Parquet conversion: %w; the repository's own files: %w", convErr, friendly(spec, repoErr))
}

// conversionFiles downloads (or finds in the cache) the Parquet files of the
// split in the Hub's conversion.
func conversionFiles(ctx context.Context, c *hub.Client, spec Spec, split string) ([]string, error) {
	config := spec.Name
	if config == "" {
		configs, err := c.ParquetSplits(ctx, spec.Path)
		if err != nil {
			return nil, err
		}
		if config, err = conversionConfig(spec, configs); err != nil {
			return nil, err
		}
	}
	files, err := c.DownloadParquet(ctx, spec.Path, config, split)
	if err != nil && errors.Is(err, hub.ErrNotFound) && !strings.Contains(err.Error(), "RepoNotFound") {
		// Say which configs and splits there are, when the listing has them.
		if configs, lerr := c.ParquetSplits(ctx, spec.Path); lerr == nil {
			if splits, ok := configs[config]; ok {
				return nil, fmt.Errorf("no split %q in config %q (splits: %s): %w", split, config, strings.Join(splits, ", "), ErrNoSplit)
			}
			return nil, fmt.Errorf("no config %q in the Hub's Parquet conversion (configs: %s): %w", config, strings.Join(keys(configs), ", "), hub.ErrNotFound)
		}
	}
	return files, err
}

var errScriptOnly = errors.New("the dataset exists only as a Python loading script, which lmeval cannot run")

// repoSelection is the choice of a repository's own data files.
type repoSelection struct {
	repo   hub.Repo
	commit string
	files  map[string][]string // split -> paths in the repo
}

// repoFiles lists the repository's own data files at the pinned revision and
// assigns them to splits.
func repoFiles(ctx context.Context, c *hub.Client, spec Spec) (*repoSelection, error) {
	repo := hub.Repo{Type: hub.Dataset, ID: spec.Path}
	info, err := c.Info(ctx, repo, revisionOf(spec))
	if err != nil {
		return nil, err
	}
	all := info.Files()
	var configs []cardConfig
	for _, f := range all {
		if f == "README.md" {
			p, err := c.Download(ctx, repo, info.SHA, "README.md")
			if err != nil {
				return nil, err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			if configs, err = cardConfigs(b); err != nil {
				return nil, err
			}
		}
	}
	sel := &repoSelection{repo: repo, commit: info.SHA}
	if sel.files, err = selectFiles(all, configs, spec.Name, spec.Kwargs); err != nil {
		return nil, err
	}
	if len(sel.files) == 0 {
		for _, f := range all {
			if strings.HasSuffix(f, ".py") && !strings.Contains(f, "/") {
				return nil, fmt.Errorf("%w (%s); there are no data files", errScriptOnly, f)
			}
		}
		return nil, fmt.Errorf("the repository has no data files (parquet, json, jsonl, csv, tsv, txt): %w", hub.ErrNotFound)
	}
	return sel, nil
}

func hubSplits(ctx context.Context, spec Spec, opts Options) ([]string, error) {
	c := opts.client()
	var convErr error
	if useConversion(spec) {
		configs, err := c.ParquetSplits(ctx, spec.Path)
		if err == nil {
			config, err := conversionConfig(spec, configs)
			if err == nil {
				return configs[config], nil
			}
			convErr = err
		} else {
			convErr = err
		}
		if !errors.Is(convErr, hub.ErrNotFound) && !errors.Is(convErr, hub.ErrOffline) && !hub.Unreachable(convErr) {
			return nil, friendly(spec, convErr)
		}
	}
	m, err := repoFiles(ctx, c, spec)
	if err != nil {
		return nil, combine(spec, convErr, err)
	}
	return keys(m.files), nil
}
