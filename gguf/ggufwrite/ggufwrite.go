// Package ggufwrite writes GGUF files: any metadata and tensors with
// New/SetKV/AddTensor, or complete tiny llama-architecture models with
// deterministic random weights (Llama, WriteLlama) that llama.cpp loads and
// runs. It exists for tests: edge-case models (vocabularies, context sizes,
// missing BOS), files to corrupt, and random-weight models to quantize.
package ggufwrite

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"

	"github.com/lmeval/lmeval/gguf"
)

// File is a GGUF file being assembled in memory. Errors in SetKV and
// AddTensor (unsupported types, wrong data sizes) are kept and returned by
// WriteTo and WriteFile.
type File struct {
	// Version is written in the header; New sets gguf.Version (3). Tests
	// may set others to make unreadable files.
	Version uint32

	kv      []gguf.KV
	tensors []tensor
	errs    []error
}

type tensor struct {
	info gguf.TensorInfo
	data []byte
}

// New returns an empty GGUF version 3 file.
func New() *File { return &File{Version: gguf.Version} }

// SetKV sets the metadata value of key, replacing an earlier value in place
// (so file order is the order keys were first set). v is a uint8, int8,
// uint16, int16, uint32, int32, uint64, int64, float32, float64, bool or
// string, a typed slice of one of those ([]string, []float32, ...; stored
// as a []any array value, as gguf reads it back), or a gguf.Value. Go int
// and uint are
// refused: llama.cpp checks metadata types exactly, so the width must be
// chosen (llama.cpp hyperparameters are uint32).
func (f *File) SetKV(key string, v any) {
	val, err := toValue(v)
	if err == nil && key == "" {
		err = errors.New("empty key")
	}
	if err != nil {
		f.errs = append(f.errs, fmt.Errorf("SetKV(%q): %w", key, err))
		return
	}
	for i := range f.kv {
		if f.kv[i].Key == key {
			f.kv[i].Value = val
			return
		}
	}
	f.kv = append(f.kv, gguf.KV{Key: key, Value: val})
}

// DeleteKV removes key from the metadata.
func (f *File) DeleteKV(key string) {
	for i := range f.kv {
		if f.kv[i].Key == key {
			f.kv = append(f.kv[:i], f.kv[i+1:]...)
			return
		}
	}
}

// KV returns the metadata set so far, in file order.
func (f *File) KV() []gguf.KV { return f.kv }

func toValue(v any) (gguf.Value, error) {
	if x, ok := v.(gguf.Value); ok {
		return checkValue(x)
	}
	if t, ok := scalarType(v); ok {
		return gguf.Value{Type: t, Data: v}, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice {
		if _, isAny := v.([]any); !isAny {
			et, ok := scalarType(reflect.Zero(rv.Type().Elem()).Interface())
			if ok {
				a := make([]any, rv.Len())
				for i := range a {
					a[i] = rv.Index(i).Interface()
				}
				return gguf.Value{Type: gguf.TypeArray, Elem: et, Data: a}, nil
			}
		}
	}
	switch v.(type) {
	case int, uint, []int, []uint:
		return gguf.Value{}, fmt.Errorf("Go %T has no GGUF width; use e.g. uint32 or int32", v)
	case []any:
		return gguf.Value{}, errors.New("[]any has no element type; pass a typed slice or a gguf.Value")
	}
	return gguf.Value{}, fmt.Errorf("unsupported value type %T", v)
}

// scalarType returns the GGUF type of a Go scalar.
func scalarType(v any) (gguf.ValueType, bool) {
	switch v.(type) {
	case uint8:
		return gguf.TypeUint8, true
	case int8:
		return gguf.TypeInt8, true
	case uint16:
		return gguf.TypeUint16, true
	case int16:
		return gguf.TypeInt16, true
	case uint32:
		return gguf.TypeUint32, true
	case int32:
		return gguf.TypeInt32, true
	case uint64:
		return gguf.TypeUint64, true
	case int64:
		return gguf.TypeInt64, true
	case float32:
		return gguf.TypeFloat32, true
	case float64:
		return gguf.TypeFloat64, true
	case bool:
		return gguf.TypeBool, true
	case string:
		return gguf.TypeString, true
	}
	return 0, false
}

// checkValue checks that a gguf.Value's data has its declared type.
func checkValue(x gguf.Value) (gguf.Value, error) {
	bad := fmt.Errorf("gguf.Value of type %s holds %T", x.TypeName(), x.Data)
	if x.Type != gguf.TypeArray {
		if t, ok := scalarType(x.Data); !ok || t != x.Type {
			return gguf.Value{}, bad
		}
		return x, nil
	}
	a, ok := x.Data.([]any)
	if !ok {
		return gguf.Value{}, bad
	}
	for i, e := range a {
		if t, ok := scalarType(e); !ok || t != x.Elem {
			return gguf.Value{}, fmt.Errorf("gguf.Value of type %s: element %d is %T", x.TypeName(), i, e)
		}
	}
	return x, nil
}

// AddTensor appends a tensor. shape is in ggml order (shape[0] is the row
// length); data must hold exactly the tensor's bytes for typ (see
// EncodeFloats). The data is not copied.
func (f *File) AddTensor(name string, typ gguf.TensorType, shape []uint64, data []byte) {
	ti := gguf.TensorInfo{Name: name, Type: typ, Shape: append([]uint64(nil), shape...)}
	var err error
	switch {
	case name == "" || len(name) > gguf.MaxNameLen:
		err = fmt.Errorf("name must have 1 to %d bytes", gguf.MaxNameLen)
	case !typ.Valid():
		err = fmt.Errorf("invalid type %v", typ)
	case len(shape) == 0 || len(shape) > gguf.MaxDims:
		err = fmt.Errorf("shape %v must have 1 to %d dimensions", shape, gguf.MaxDims)
	case shape[0]%typ.BlockSize() != 0:
		err = fmt.Errorf("rows of %d elements are not a multiple of the %v block size %d", shape[0], typ, typ.BlockSize())
	case uint64(len(data)) != ti.Bytes():
		err = fmt.Errorf("%d bytes of data, want %d for %v %v", len(data), ti.Bytes(), typ, shape)
	}
	for _, d := range shape {
		if d == 0 && err == nil {
			err = fmt.Errorf("shape %v has a zero dimension", shape)
		}
	}
	for _, t := range f.tensors {
		if t.info.Name == name && err == nil {
			err = errors.New("duplicate tensor name")
		}
	}
	if err != nil {
		f.errs = append(f.errs, fmt.Errorf("AddTensor(%q): %w", name, err))
		return
	}
	f.tensors = append(f.tensors, tensor{info: ti, data: data})
}

// Err returns the errors recorded by SetKV and AddTensor, joined.
func (f *File) Err() error { return errors.Join(f.errs...) }

func (f *File) alignment() uint64 {
	for _, kv := range f.kv {
		if a, ok := kv.Value.Data.(uint32); ok && kv.Key == "general.alignment" && a != 0 && a&(a-1) == 0 {
			return uint64(a)
		}
	}
	return gguf.DefaultAlignment
}

// WriteTo writes the file in GGUF layout: header, metadata, tensor index,
// then the tensor data, each tensor padded with zeros to the alignment
// (general.alignment when set, else 32), as gguf.cpp writes it.
func (f *File) WriteTo(w io.Writer) (int64, error) {
	if err := f.Err(); err != nil {
		return 0, err
	}
	cw := &countWriter{w: bufio.NewWriterSize(w, 1<<16)}
	le := binary.LittleEndian
	u32 := func(v uint32) { cw.write(le.AppendUint32(nil, v)) }
	u64 := func(v uint64) { cw.write(le.AppendUint64(nil, v)) }
	str := func(s string) { u64(uint64(len(s))); cw.write([]byte(s)) }

	cw.write([]byte(gguf.Magic))
	u32(f.Version)
	u64(uint64(len(f.tensors)))
	u64(uint64(len(f.kv)))
	for _, kv := range f.kv {
		str(kv.Key)
		u32(uint32(kv.Value.Type))
		if kv.Value.Type == gguf.TypeArray {
			u32(uint32(kv.Value.Elem))
			u64(uint64(kv.Value.Len()))
		}
		cw.write(appendValue(nil, kv.Value.Data))
	}
	align := f.alignment()
	var off uint64
	for _, t := range f.tensors {
		str(t.info.Name)
		u32(uint32(len(t.info.Shape)))
		for _, d := range t.info.Shape {
			u64(d)
		}
		u32(uint32(t.info.Type))
		u64(off)
		off = pad(off+uint64(len(t.data)), align)
	}
	zeros := make([]byte, align)
	cw.write(zeros[:pad(uint64(cw.n), align)-uint64(cw.n)])
	for _, t := range f.tensors {
		cw.write(t.data)
		cw.write(zeros[:pad(uint64(len(t.data)), align)-uint64(len(t.data))])
	}
	if cw.err == nil {
		cw.err = cw.w.(*bufio.Writer).Flush()
	}
	return cw.n, cw.err
}

func pad(n, align uint64) uint64 { return (n + align - 1) / align * align }

// WriteFile writes the file to path.
func (f *File) WriteFile(path string) error {
	if err := f.Err(); err != nil {
		return fmt.Errorf("ggufwrite %s: %w", path, err)
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.WriteTo(out); err != nil {
		out.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return out.Close()
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) write(p []byte) {
	if c.err != nil {
		return
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
}

// appendValue appends the little-endian encoding of a value's data; for
// an array, its elements without the type and count, which WriteTo writes
// first.
func appendValue(b []byte, v any) []byte {
	if a, ok := v.([]any); ok {
		for _, e := range a {
			b = appendValue(b, e)
		}
		return b
	}
	le := binary.LittleEndian
	switch x := v.(type) {
	case uint8:
		b = append(b, x)
	case int8:
		b = append(b, byte(x))
	case bool:
		b = append(b, boolByte(x))
	case uint16:
		b = le.AppendUint16(b, x)
	case int16:
		b = le.AppendUint16(b, uint16(x))
	case uint32:
		b = le.AppendUint32(b, x)
	case int32:
		b = le.AppendUint32(b, uint32(x))
	case float32:
		b = le.AppendUint32(b, math.Float32bits(x))
	case uint64:
		b = le.AppendUint64(b, x)
	case int64:
		b = le.AppendUint64(b, uint64(x))
	case float64:
		b = le.AppendUint64(b, math.Float64bits(x))
	case string:
		b = le.AppendUint64(b, uint64(len(x)))
		b = append(b, x...)
	default:
		panic(fmt.Sprintf("ggufwrite: appendValue(%T)", v)) // toValue admits no other type
	}
	return b
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
