package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteJSON writes the report as indented JSON (NaN as null).
func WriteJSON(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// Files written by WriteFiles.
const (
	JSONFile = "compare.json"
	HTMLFile = "compare.html"
)

// WriteFiles writes compare.json and compare.html into dir and returns
// their paths.
func WriteFiles(dir string, rep *Report) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("compare: output: %w", err)
	}
	var paths []string
	for _, f := range []struct {
		name  string
		write func(io.Writer, *Report) error
	}{{JSONFile, WriteJSON}, {HTMLFile, WriteHTML}} {
		p := filepath.Join(dir, f.name)
		out, err := os.Create(p)
		if err != nil {
			return nil, fmt.Errorf("compare: output: %w", err)
		}
		err = f.write(out, rep)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("compare: output %s: %w", p, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}
