package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/harness/cache"
	"github.com/lmeval/lmeval/internal/units"
)

func cacheCommand() *cli.Command {
	return &cli.Command{
		Name:  "cache",
		Usage: "inspect, clear or merge response caches (--use_cache PATH)",
		Subcommands: []*cli.Command{
			{
				Name:      "info",
				Usage:     "summarise a cache: entries per request type and per model",
				ArgsUsage: "PATH",
				Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print as JSON"}},
				Action: func(c *cli.Context) error {
					db, err := openExistingCache(c)
					if err != nil {
						return err
					}
					defer db.Close()
					info, err := db.Summary()
					if err != nil {
						return err
					}
					if c.Bool("json") {
						enc := json.NewEncoder(c.App.Writer)
						enc.SetIndent("", "  ")
						return enc.Encode(info)
					}
					printCacheInfo(c, info)
					return nil
				},
			},
			{
				Name:      "clear",
				Usage:     "delete every entry of a cache",
				ArgsUsage: "PATH",
				Action: func(c *cli.Context) error {
					db, err := openExistingCache(c)
					if err != nil {
						return err
					}
					defer db.Close()
					info, err := db.Summary()
					if err != nil {
						return err
					}
					if err := db.Clear(); err != nil {
						return err
					}
					n := 0
					for _, v := range info.Responses {
						n += v
					}
					fmt.Fprintf(c.App.Writer, "cleared %s: %d responses, %d request sets\n", info.Path, n, info.Blobs)
					return nil
				},
			},
			{
				Name:      "merge",
				Usage:     "copy into DEST every entry of the SRC caches it lacks (the shards' caches of a sharded run)",
				ArgsUsage: "DEST SRC...",
				Action:    cacheMergeAction,
			},
		},
	}
}

// cacheMergeAction is lmeval cache merge DEST SRC...: DEST is created if
// need be; entries both have keep DEST's value.
func cacheMergeAction(c *cli.Context) error {
	if c.NArg() < 2 {
		return fmt.Errorf("%s takes the destination cache and one or more caches to merge into it", c.Command.FullName())
	}
	args := c.Args().Slice()
	db, err := cache.Open(args[0])
	if err != nil {
		return err
	}
	defer db.Close()
	for _, src := range args[1:] {
		st, err := db.Merge(c.Context, src)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "%s: %d responses added (%d already there", src, st.Responses, st.Present)
		if st.Conflicts > 0 {
			fmt.Fprintf(c.App.Writer, ", %d of them with another value, kept as they were", st.Conflicts)
		}
		fmt.Fprintf(c.App.Writer, "), %d model identities, %d request sets\n", st.Models, st.Blobs)
	}
	info, err := db.Summary()
	if err != nil {
		return err
	}
	n := 0
	for _, v := range info.Responses {
		n += v
	}
	fmt.Fprintf(c.App.Writer, "%s: %d responses\n", info.Path, n)
	return nil
}

// openExistingCache opens the cache named by the only argument; it does not
// create one where there is none.
func openExistingCache(c *cli.Context) (*cache.Cache, error) {
	if c.NArg() != 1 {
		return nil, fmt.Errorf("%s takes the cache file's path", c.Command.FullName())
	}
	p := c.Args().First()
	if _, err := os.Stat(p); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return cache.Open(p)
}

func printCacheInfo(c *cli.Context, info cache.Summary) {
	w := c.App.Writer
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "path\t%s\n", info.Path)
	fmt.Fprintf(tw, "size\t%s\n", units.Bytes(info.Size))
	kinds := make([]string, 0, len(info.Responses))
	total := 0
	for k, n := range info.Responses {
		kinds = append(kinds, k)
		total += n
	}
	sort.Strings(kinds)
	fmt.Fprintf(tw, "responses\t%d\n", total)
	for _, k := range kinds {
		fmt.Fprintf(tw, "  %s\t%d\n", k, info.Responses[k])
	}
	fmt.Fprintf(tw, "request sets\t%d\n", info.Blobs)
	fmt.Fprintf(tw, "fingerprinted files\t%d\n", info.Fingerprints)
	tw.Flush()
	if len(info.Models) == 0 {
		return
	}
	fmt.Fprintln(w, "\nmodels:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "identity\tentries\tbackend\tfile sha256\tsettings")
	for _, m := range info.Models {
		fp := m.Identity.Fingerprint
		if len(fp) > 16 {
			fp = fp[:16]
		}
		if fp == "" {
			fp = "-"
		}
		keys := make([]string, 0, len(m.Identity.Settings))
		for k := range m.Identity.Settings {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var s []string
		for _, k := range keys {
			s = append(s, k+"="+m.Identity.Settings[k])
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", m.Hash[:16], m.Entries, m.Identity.Backend, fp, strings.Join(s, ","))
	}
	tw.Flush()
}
