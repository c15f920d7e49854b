package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/internal/units"
)

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:      "inspect",
		Usage:     "print a GGUF model's facts (architecture, size, quantization, context, vocabulary, chat template)",
		ArgsUsage: "MODEL.gguf",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the facts as JSON"},
			&cli.BoolFlag{Name: "kv", Usage: "also print every metadata key (long arrays abbreviated)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("inspect takes one GGUF file, got %d arguments", c.NArg())
			}
			f, err := gguf.Open(c.Args().First())
			if err != nil {
				return err
			}
			facts := f.Facts()
			eog := eogTokens(f.Path)
			w := c.App.Writer
			if c.Bool("json") {
				out := map[string]any{"path": f.Path, "version": f.Version, "facts": facts, "eog": eog}
				if c.Bool("kv") {
					kv := map[string]any{}
					for _, e := range f.KV {
						kv[e.Key], _ = f.Get(e.Key)
					}
					out["metadata"] = kv
				}
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				return enc.Encode(out)
			}
			printFacts(w, f, facts, eog)
			if c.Bool("kv") {
				fmt.Fprintln(w)
				for _, e := range f.KV {
					v, _ := f.Get(e.Key)
					fmt.Fprintf(w, "%s = %s\n", e.Key, abbreviate(v))
				}
			}
			return nil
		},
	}
}

// A Token is a vocabulary entry as inspect prints it.
type Token struct {
	ID    int32  `json:"id"`
	Piece string `json:"piece"`
}

// eogTokens lists the end-of-generation tokens as llama.cpp's vocabulary
// derives them (EOS, EOT, EOM and the special tokens it recognises by
// text), loading only the tokenizer; nil when it cannot be loaded.
func eogTokens(path string) []Token {
	m, err := engine.Load(path, engine.Options{VocabOnly: true})
	if err != nil {
		return nil
	}
	defer m.Close()
	var toks []Token
	for _, id := range m.Settings().EOG {
		toks = append(toks, Token{ID: id, Piece: m.TokenPiece(id)})
	}
	return toks
}

func printFacts(w io.Writer, f *gguf.File, x gguf.Facts, eog []Token) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k string, v any) { fmt.Fprintf(tw, "%s\t%v\n", k, v) }
	row("file", f.Path)
	row("gguf version", f.Version)
	row("architecture", x.Architecture)
	if x.Name != "" {
		row("name", x.Name)
	}
	ft := x.FileType
	if x.FileTypeGuessed {
		ft += " (guessed from tensor types)"
	}
	row("file type", ft)
	row("parameters", humanCount(x.Params))
	row("file size", fmt.Sprintf("%s (%d bytes)", units.Bytes(x.FileSize), x.FileSize))
	row("bits per weight", fmt.Sprintf("%.2f", x.BitsPerWeight))
	row("context length", x.ContextLength)
	row("embedding length", x.EmbeddingLength)
	row("layers", x.BlockCount)
	row("heads", fmt.Sprintf("%d (kv %d)", x.HeadCount, x.HeadCountKV))
	row("feed-forward length", x.FeedForwardLength)
	row("vocabulary", fmt.Sprintf("%d (%s)", x.VocabSize, x.TokenizerModel))
	row("bos / eos / unk", fmt.Sprintf("%d / %d / %d", x.BOS, x.EOS, x.UNK))
	if len(eog) > 0 {
		var parts []string
		for _, t := range eog {
			parts = append(parts, fmt.Sprintf("%d %q", t.ID, t.Piece))
		}
		row("end of generation", strings.Join(parts, ", "))
	}
	row("add bos / eos", fmt.Sprintf("%s / %s", optBool(x.AddBOS), optBool(x.AddEOS)))
	if x.ChatTemplate != "" {
		row("chat template", fmt.Sprintf("%d characters (print with --kv)", len(x.ChatTemplate)))
	} else {
		row("chat template", "none")
	}
	tw.Flush()
}

func optBool(b *bool) string {
	if b == nil {
		return "unset"
	}
	return fmt.Sprint(*b)
}

func humanCount(n uint64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2fB (%d)", float64(n)/1e9, n)
	case n >= 1e6:
		return fmt.Sprintf("%.2fM (%d)", float64(n)/1e6, n)
	case n >= 1e3:
		return fmt.Sprintf("%.2fK (%d)", float64(n)/1e3, n)
	}
	return fmt.Sprint(n)
}

// abbreviate prints a metadata value, cutting long arrays and strings.
func abbreviate(v any) string {
	switch x := v.(type) {
	case []any:
		if len(x) > 8 {
			parts := make([]string, 0, 9)
			for _, e := range x[:8] {
				parts = append(parts, abbreviate(e))
			}
			return fmt.Sprintf("[%s, ... (%d items)]", strings.Join(parts, ", "), len(x))
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = abbreviate(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return fmt.Sprintf("%q", x)
	}
	return fmt.Sprint(v)
}
