package engine

/*
#include <stdlib.h>
#if !__has_include("quantdist.h")
#error "lmeval: the native engine's cgo flags are not set: build and test with 'make' / 'make test', or run eval \"$(make -s env)\" first (see docs/build.md)"
#endif
#include "quantdist.h"
*/
import "C"

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"unsafe"

	"github.com/lmeval/lmeval/gguf"
)

// QuantizeOptions configure Quantize.
type QuantizeOptions struct {
	// FileType is the target quantization as llama.cpp's quantize tool
	// names it ("Q8_0", "Q4_K_M", "F16", "BF16", ...).
	FileType string
	Threads  int // 0: runtime.NumCPU()
	// Imatrix is an importance matrix (tensor name -> per-column weights),
	// as LoadImatrix reads it; nil for none.
	Imatrix map[string][]float32
	// AllowRequantize lets an already quantized input be quantized again.
	AllowRequantize bool
	// Pure quantizes every tensor to the file type's base type, without
	// llama.cpp's per-tensor mixture.
	Pure bool
}

// ErrQuantizeRefused is wrapped by Quantize's error when llama.cpp refuses
// the quantization (for example a block quantization of a model whose rows
// are not a multiple of the block size); llama.cpp's reason is in the log.
var ErrQuantizeRefused = errors.New("llama.cpp refused the quantization")

// Quantize writes the GGUF model at in, quantized to opts.FileType, to out
// through llama.cpp's llama_model_quantize. The file is written under a
// temporary name and renamed, so out exists only when complete.
func Quantize(in, out string, opts QuantizeOptions) error {
	ft, err := gguf.ParseFileType(opts.FileType)
	if err != nil {
		return fmt.Errorf("engine: quantize %s: %w", in, err)
	}
	gf, err := gguf.Open(in)
	if err != nil {
		return fmt.Errorf("engine: quantize %s: %w", in, err)
	}
	if len(gf.Tensors) == 0 {
		return fmt.Errorf("engine: quantize %s: the file has no tensors", in)
	}
	nativeInit()
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return fmt.Errorf("engine: quantize %s: %w", in, err)
	}
	tmpName := tmp.Name()
	tmp.Close()
	defer os.Remove(tmpName)

	var p C.lm_quant_params
	p.ftype = C.int32_t(ft)
	p.n_threads = C.int32_t(opts.Threads)
	if opts.Threads <= 0 {
		p.n_threads = C.int32_t(runtime.NumCPU())
	}
	p.allow_requantize = b2i(opts.AllowRequantize)
	p.pure = b2i(opts.Pure)

	// The imatrix lives in C memory for the call (cgo forbids Go pointers
	// to Go pointers).
	var cleanup []unsafe.Pointer
	defer func() {
		for _, ptr := range cleanup {
			C.free(ptr)
		}
	}()
	if len(opts.Imatrix) > 0 {
		n := len(opts.Imatrix)
		total := 0
		for _, v := range opts.Imatrix {
			total += len(v)
		}
		names := (*[1 << 28]*C.char)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0)))))[:n:n]
		data := (*[1 << 30]C.float)(C.malloc(C.size_t(max(total, 1)) * 4))[:max(total, 1):max(total, 1)]
		offs := (*[1 << 28]C.int64_t)(C.malloc(C.size_t(n) * 8))[:n:n]
		lens := (*[1 << 28]C.int64_t)(C.malloc(C.size_t(n) * 8))[:n:n]
		im := (*C.lm_imatrix)(C.malloc(C.size_t(unsafe.Sizeof(C.lm_imatrix{}))))
		cleanup = append(cleanup, unsafe.Pointer(&names[0]), unsafe.Pointer(&data[0]), unsafe.Pointer(&offs[0]),
			unsafe.Pointer(&lens[0]), unsafe.Pointer(im))
		i, off := 0, 0
		for name, v := range opts.Imatrix {
			names[i] = C.CString(name)
			cleanup = append(cleanup, unsafe.Pointer(names[i]))
			for j, f := range v {
				data[off+j] = C.float(f)
			}
			offs[i], lens[i] = C.int64_t(off), C.int64_t(len(v))
			off += len(v)
			i++
		}
		im.n = C.int32_t(n)
		im.names = (**C.char)(unsafe.Pointer(&names[0]))
		im.data = &data[0]
		im.off = &offs[0]
		im.len = &lens[0]
		p.imatrix = im
	}

	cin, cout := C.CString(in), C.CString(tmpName)
	defer C.free(unsafe.Pointer(cin))
	defer C.free(unsafe.Pointer(cout))
	if rc := C.lm_quantize(cin, cout, &p); rc != 0 {
		return fmt.Errorf("engine: quantize %s to %s: %w", in, ft, ErrQuantizeRefused)
	}
	if err := os.Rename(tmpName, out); err != nil {
		return fmt.Errorf("engine: quantize %s: %w", in, err)
	}
	return nil
}

// LoadImatrix reads an importance matrix as llama.cpp's quantize tool
// does: either the GGUF format of llama-imatrix (tensors NAME.in_sum2 and
// NAME.counts; the values are in_sum2 / counts per expert, 1 where a count
// is 0) or the legacy binary .dat format (per entry: name, ncall, values,
// the values divided by ncall).
func LoadImatrix(path string) (map[string][]float32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("imatrix: %w", err)
	}
	defer f.Close()
	var magic [4]byte
	if _, err := io.ReadFull(f, magic[:]); err == nil && string(magic[:]) == "GGUF" {
		return loadImatrixGGUF(path)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("imatrix %s: %w", path, err)
	}
	return loadImatrixDat(f, path)
}

func loadImatrixGGUF(path string) (map[string][]float32, error) {
	gf, err := gguf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("imatrix: %w", err)
	}
	out := map[string][]float32{}
	for _, t := range gf.Tensors {
		name, ok := strings.CutSuffix(t.Name, ".in_sum2")
		if !ok {
			continue
		}
		ct, ok := gf.Tensor(name + ".counts")
		if !ok {
			return nil, fmt.Errorf("imatrix %s: %s has no %s.counts", path, t.Name, name)
		}
		sums, err := f32Tensor(gf, t)
		if err != nil {
			return nil, fmt.Errorf("imatrix %s: %w", path, err)
		}
		counts, err := f32Tensor(gf, ct)
		if err != nil {
			return nil, fmt.Errorf("imatrix %s: %w", path, err)
		}
		ne0 := int(t.Shape[0])
		ne1 := len(sums) / max(ne0, 1)
		if len(counts) < ne1 {
			return nil, fmt.Errorf("imatrix %s: %s has %d counts for %d experts", path, name, len(counts), ne1)
		}
		e := make([]float32, len(sums))
		for j := 0; j < ne1; j++ {
			for i := 0; i < ne0; i++ {
				if counts[j] > 0 {
					e[j*ne0+i] = sums[j*ne0+i] / counts[j]
				} else {
					e[j*ne0+i] = 1 // never saw input during calibration, as llama.cpp
				}
			}
		}
		out[name] = e
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("imatrix %s: no *.in_sum2 tensors", path)
	}
	return out, nil
}

func f32Tensor(gf *gguf.File, t gguf.TensorInfo) ([]float32, error) {
	if t.Type != gguf.F32 {
		return nil, fmt.Errorf("tensor %s is %v, want F32", t.Name, t.Type)
	}
	raw, err := gf.TensorData(t.Name)
	if err != nil {
		return nil, err
	}
	v := make([]float32, len(raw)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return v, nil
}

func loadImatrixDat(r io.Reader, path string) (map[string][]float32, error) {
	bad := func(what string, err error) error {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("file truncated")
		}
		return fmt.Errorf("imatrix %s: %s: %w", path, what, err)
	}
	var n int32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return nil, bad("entry count", err)
	}
	if n <= 0 || n > 1<<20 {
		return nil, fmt.Errorf("imatrix %s: not an imatrix file (GGUF or legacy .dat); entry count %d", path, n)
	}
	out := make(map[string][]float32, n)
	for i := int32(0); i < n; i++ {
		var l int32
		if err := binary.Read(r, binary.LittleEndian, &l); err != nil {
			return nil, bad(fmt.Sprintf("entry %d", i), err)
		}
		if l <= 0 || l > 1<<16 {
			return nil, fmt.Errorf("imatrix %s: entry %d: bad name length %d", path, i, l)
		}
		name := make([]byte, l)
		if _, err := io.ReadFull(r, name); err != nil {
			return nil, bad(fmt.Sprintf("entry %d", i), err)
		}
		var hdr [2]int32 // ncall, nval
		if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
			return nil, bad(fmt.Sprintf("entry %s", name), err)
		}
		if hdr[1] <= 0 || hdr[1] > 1<<28 {
			return nil, fmt.Errorf("imatrix %s: entry %s: bad value count %d", path, name, hdr[1])
		}
		v := make([]float32, hdr[1])
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return nil, bad(fmt.Sprintf("entry %s", name), err)
		}
		if hdr[0] > 0 {
			for j := range v {
				v[j] /= float32(hdr[0])
			}
		}
		out[string(name)] = v
	}
	return out, nil
}
