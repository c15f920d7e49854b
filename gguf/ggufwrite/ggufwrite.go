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

	"lmeval/gguf"
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
// string, a slice of one of those, or a gguf.Value. Go int and uint are
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
	scalar := func(t gguf.ValueType) (gguf.Value, error) { return gguf.Value{Type: t, Data: v}, nil }
	array := func(t gguf.ValueType) (gguf.Value, error) {
		return gguf.Value{Type: gguf.TypeArray, Elem: t, Data: v}, nil
	}
	switch x := v.(type) {
	case gguf.Value:
		// Validate by re-deriving the type from the data.
		w, err := toValue(x.Data)
		if err != nil || w.Type != x.Type || w.Elem != x.Elem {
			return gguf.Value{}, fmt.Errorf("gguf.Value of type %s holds %T", x.TypeName(), x.Data)
		}
		return x, nil
	case uint8:
		return scalar(gguf.TypeUint8)
	case int8:
		return scalar(gguf.TypeInt8)
	case uint16:
		return scalar(gguf.TypeUint16)
	case int16:
		return scalar(gguf.TypeInt16)
	case uint32:
		return scalar(gguf.TypeUint32)
	case int32:
		return scalar(gguf.TypeInt32)
	case uint64:
		return scalar(gguf.TypeUint64)
	case int64:
		return scalar(gguf.TypeInt64)
	case float32:
		return scalar(gguf.TypeFloat32)
	case float64:
		return scalar(gguf.TypeFloat64)
	case bool:
		return scalar(gguf.TypeBool)
	case string:
		return scalar(gguf.TypeString)
	case []uint8:
		return array(gguf.TypeUint8)
	case []int8:
		return array(gguf.TypeInt8)
	case []uint16:
		return array(gguf.TypeUint16)
	case []int16:
		return array(gguf.TypeInt16)
	case []uint32:
		return array(gguf.TypeUint32)
	case []int32:
		return array(gguf.TypeInt32)
	case []uint64:
		return array(gguf.TypeUint64)
	case []int64:
		return array(gguf.TypeInt64)
	case []float32:
		return array(gguf.TypeFloat32)
	case []float64:
		return array(gguf.TypeFloat64)
	case []bool:
		return array(gguf.TypeBool)
	case []string:
		return array(gguf.TypeString)
	case int, uint, []int, []uint:
		return gguf.Value{}, fmt.Errorf("Go %T has no GGUF width; use e.g. uint32 or int32", v)
	}
	return gguf.Value{}, fmt.Errorf("unsupported value type %T", v)
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
		cw.write(encodeValue(kv.Value.Data))
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

// encodeValue returns the little-endian encoding of a value's data; arrays
// without their type and count, which WriteTo writes first.
func encodeValue(v any) []byte {
	le := binary.LittleEndian
	var b []byte
	str := func(s string) { b = le.AppendUint64(b, uint64(len(s))); b = append(b, s...) }
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
		str(x)
	case []uint8:
		b = append(b, x...)
	case []int8:
		for _, e := range x {
			b = append(b, byte(e))
		}
	case []bool:
		for _, e := range x {
			b = append(b, boolByte(e))
		}
	case []uint16:
		for _, e := range x {
			b = le.AppendUint16(b, e)
		}
	case []int16:
		for _, e := range x {
			b = le.AppendUint16(b, uint16(e))
		}
	case []uint32:
		for _, e := range x {
			b = le.AppendUint32(b, e)
		}
	case []int32:
		for _, e := range x {
			b = le.AppendUint32(b, uint32(e))
		}
	case []float32:
		for _, e := range x {
			b = le.AppendUint32(b, math.Float32bits(e))
		}
	case []uint64:
		for _, e := range x {
			b = le.AppendUint64(b, e)
		}
	case []int64:
		for _, e := range x {
			b = le.AppendUint64(b, uint64(e))
		}
	case []float64:
		for _, e := range x {
			b = le.AppendUint64(b, math.Float64bits(e))
		}
	case []string:
		for _, e := range x {
			str(e)
		}
	default:
		panic(fmt.Sprintf("ggufwrite: encodeValue(%T)", v)) // toValue admits no other type
	}
	return b
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
