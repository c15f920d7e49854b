package gguf

import (
	"fmt"
	"sort"
	"strings"
)

// FileType is a llama_ftype: the quantization recipe of a whole model, as
// stored in general.file_type and passed to llama_model_quantize.
type FileType uint32

// FileTypeGuessed is the flag llama.cpp ORs into a FileType it inferred
// from tensor types because general.file_type was absent.
const FileTypeGuessed FileType = 1024

// fileTypes lists every llama_ftype of llama.cpp's include/llama.h with the
// short name its quantize tool accepts and the description
// llama_model_ftype_name prints.
var fileTypes = map[FileType]struct{ name, desc string }{
	0:  {"F32", "all F32"},
	1:  {"F16", "F16"},
	2:  {"Q4_0", "Q4_0"},
	3:  {"Q4_1", "Q4_1"},
	7:  {"Q8_0", "Q8_0"},
	8:  {"Q5_0", "Q5_0"},
	9:  {"Q5_1", "Q5_1"},
	10: {"Q2_K", "Q2_K - Medium"},
	11: {"Q3_K_S", "Q3_K - Small"},
	12: {"Q3_K_M", "Q3_K - Medium"},
	13: {"Q3_K_L", "Q3_K - Large"},
	14: {"Q4_K_S", "Q4_K - Small"},
	15: {"Q4_K_M", "Q4_K - Medium"},
	16: {"Q5_K_S", "Q5_K - Small"},
	17: {"Q5_K_M", "Q5_K - Medium"},
	18: {"Q6_K", "Q6_K"},
	19: {"IQ2_XXS", "IQ2_XXS - 2.0625 bpw"},
	20: {"IQ2_XS", "IQ2_XS - 2.3125 bpw"},
	21: {"Q2_K_S", "Q2_K - Small"},
	22: {"IQ3_XS", "IQ3_XS - 3.3 bpw"},
	23: {"IQ3_XXS", "IQ3_XXS - 3.0625 bpw"},
	24: {"IQ1_S", "IQ1_S - 1.5625 bpw"},
	25: {"IQ4_NL", "IQ4_NL - 4.5 bpw"},
	26: {"IQ3_S", "IQ3_S - 3.4375 bpw"},
	27: {"IQ3_M", "IQ3_S mix - 3.66 bpw"},
	28: {"IQ2_S", "IQ2_S - 2.5 bpw"},
	29: {"IQ2_M", "IQ2_M - 2.7 bpw"},
	30: {"IQ4_XS", "IQ4_XS - 4.25 bpw"},
	31: {"IQ1_M", "IQ1_M - 1.75 bpw"},
	32: {"BF16", "BF16"},
	36: {"TQ1_0", "TQ1_0 - 1.69 bpw ternary"},
	37: {"TQ2_0", "TQ2_0 - 2.06 bpw ternary"},
	38: {"MXFP4_MOE", "MXFP4 MoE"},
}

// fileTypeAliases are the extra names llama.cpp's quantize tool accepts.
var fileTypeAliases = map[string]FileType{"Q3_K": 12, "Q4_K": 15, "Q5_K": 17}

// String returns the short name of the file type as llama.cpp's quantize
// tool spells it ("F32", "Q8_0", "Q4_K_M"), with " (guessed)" appended when
// the guessed flag is set, or "FileType(N)" when unknown.
func (t FileType) String() string {
	if t&FileTypeGuessed != 0 {
		return (t &^ FileTypeGuessed).String() + " (guessed)"
	}
	if ft, ok := fileTypes[t]; ok {
		return ft.name
	}
	return fmt.Sprintf("FileType(%d)", uint32(t))
}

// Description returns what llama.cpp's llama_model_ftype_name prints for t
// ("all F32", "Q4_K - Medium").
func (t FileType) Description() string {
	if t&FileTypeGuessed != 0 {
		return (t &^ FileTypeGuessed).Description() + " (guessed)"
	}
	if ft, ok := fileTypes[t]; ok {
		return ft.desc
	}
	return "unknown, may not work"
}

// ParseFileType returns the file type with the given quantize-tool name,
// ignoring case ("q4_k_m", "Q8_0", "BF16"; "Q4_K" means Q4_K_M as in
// llama.cpp).
func ParseFileType(s string) (FileType, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if t, ok := fileTypeAliases[u]; ok {
		return t, nil
	}
	for t, ft := range fileTypes {
		if ft.name == u {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown file type %q (known: %s)", s, strings.Join(FileTypeNames(), ", "))
}

// FileTypeNames returns the short names of all known file types in
// llama_ftype order.
func FileTypeNames() []string {
	ids := make([]int, 0, len(fileTypes))
	for t := range fileTypes {
		ids = append(ids, int(t))
	}
	sort.Ints(ids)
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = fileTypes[FileType(id)].name
	}
	return names
}

// guessFileType infers the file type from the most common tensor type the
// way llama_model_loader does: tensors are visited in its weights_map order
// (by layer number, then by name) and the first type to reach a new maximum
// count wins.
func guessFileType(tensors []TensorInfo) FileType {
	sorted := make([]TensorInfo, len(tensors))
	copy(sorted, tensors)
	sort.Slice(sorted, func(i, j int) bool {
		li, lj := layerOf(sorted[i].Name), layerOf(sorted[j].Name)
		if li != lj {
			return li < lj
		}
		return sorted[i].Name < sorted[j].Name
	})
	count := map[TensorType]int{}
	best, bestN := F32, 0
	for _, t := range sorted {
		count[t.Type]++
		if count[t.Type] > bestN {
			best, bestN = t.Type, count[t.Type]
		}
	}
	byTensor := map[TensorType]FileType{
		F32: 0, F16: 1, BF16: 32, Q4_0: 2, Q4_1: 3, Q5_0: 8, Q5_1: 9, Q8_0: 7,
		Q2_K: 10, Q3_K: 12, Q4_K: 15, Q5_K: 17, Q6_K: 18, TQ1_0: 36, TQ2_0: 37,
		IQ2_XXS: 19, IQ2_XS: 20, IQ2_S: 28, IQ3_XXS: 23, IQ1_S: 24, IQ1_M: 31,
		IQ4_NL: 25, IQ4_XS: 30, IQ3_S: 26,
	}
	ft, ok := byTensor[best]
	if !ok {
		ft = 0 // llama.cpp falls back to ALL_F32 for an unmapped type
	}
	return ft | FileTypeGuessed
}

// layerOf parses the N of a "blk.N." tensor name as sscanf("blk.%d.") does,
// returning -1 for other names.
func layerOf(name string) int {
	rest, ok := strings.CutPrefix(name, "blk.")
	if !ok {
		return -1
	}
	neg := false
	if rest != "" && (rest[0] == '-' || rest[0] == '+') {
		neg = rest[0] == '-'
		rest = rest[1:]
	}
	n, digits := 0, 0
	for ; digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9'; digits++ {
		if n < 1<<30 {
			n = n*10 + int(rest[digits]-'0')
		}
	}
	if digits == 0 {
		return -1
	}
	if neg {
		n = -n
	}
	return n
}
