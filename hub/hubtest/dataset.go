package hubtest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// DataFile is one split's data file of a dataset config: its path in the
// repository and its content (JSON Lines, CSV, ...).
type DataFile struct {
	Path string
	Data []byte
}

// AddDataset adds a dataset repository holding the given configs, each
// split's file named by a dataset card (README.md) as a repository
// without a Parquet conversion has them: configs maps config name ->
// split -> file.
func (s *Server) AddDataset(repo string, configs map[string]map[string]DataFile) {
	var card strings.Builder
	card.WriteString("---\nconfigs:\n")
	for _, cfg := range slices.Sorted(maps.Keys(configs)) {
		fmt.Fprintf(&card, "- config_name: %s\n  data_files:\n", cfg)
		for _, split := range slices.Sorted(maps.Keys(configs[cfg])) {
			f := configs[cfg][split]
			fmt.Fprintf(&card, "  - split: %s\n    path: %s\n", split, f.Path)
			s.AddFile("dataset", repo, "", f.Path, f.Data)
		}
	}
	card.WriteString("---\n")
	s.AddFile("dataset", repo, "", "README.md", []byte(card.String()))
}
