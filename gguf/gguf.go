// Package gguf reads and validates GGUF model files without llama.cpp.
//
// Open parses the header, the metadata key/value pairs and the tensor index,
// and checks everything llama.cpp's gguf.cpp checks (and a few things on
// which it would abort instead of failing), so a bad, truncated or non-GGUF
// file becomes a Go error before any C code sees it. Tensor data is not read
// unless asked for (TensorData). Facts summarizes a model for display.
package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
)

// Format constants of GGUF (ggml/include/gguf.h).
const (
	Magic            = "GGUF"
	Version          = 3  // the newest version this package reads and writes
	DefaultAlignment = 32 // used when general.alignment is absent
	MaxDims          = 4  // GGML_MAX_DIMS
	MaxNameLen       = 63 // GGML_MAX_NAME minus the terminating NUL
)

// ErrFormat is matched (errors.Is) by every error that says the file itself
// is malformed, as opposed to an I/O error.
var ErrFormat = errors.New("invalid GGUF file")

// FormatError reports a malformed file.
type FormatError struct {
	Path string // file name; empty for in-memory input
	Msg  string // what is wrong
}

func (e *FormatError) Error() string {
	if e.Path == "" {
		return "gguf: " + e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Is makes errors.Is(err, ErrFormat) true for a *FormatError.
func (e *FormatError) Is(target error) bool { return target == ErrFormat }

// File is the parsed header, metadata and tensor index of a GGUF file.
type File struct {
	Path       string       // as passed to Open
	Version    uint32       // GGUF version: 2 or 3
	Size       int64        // file size in bytes
	KV         []KV         // metadata in file order
	Tensors    []TensorInfo // tensor index in file order
	Alignment  uint64       // data alignment (general.alignment or 32)
	DataOffset int64        // where tensor data starts; TensorInfo.Offset is relative to it

	index map[string]int // KV position by key
	ra    io.ReaderAt    // source for TensorData when not read from Path
}

// KV is one metadata key/value pair.
type KV struct {
	Key   string
	Value Value
}

// Value is a typed metadata value. Data holds the Go value: uint8, int8,
// uint16, int16, uint32, int32, uint64, int64, float32, float64, bool or
// string for a scalar; for an array, a []any whose elements all have the Go
// type of Elem. Arrays of arrays are rejected, as llama.cpp does.
type Value struct {
	Type ValueType // the value's type; TypeArray for arrays
	Elem ValueType // for an array, the type of its elements
	Data any
}

// Len returns the number of elements of an array value, or 1 for a scalar.
func (v Value) Len() int {
	if v.Type != TypeArray {
		return 1
	}
	a, _ := v.Data.([]any)
	return len(a)
}

// TypeName returns the value's type as llama.cpp prints it: "u32", "str",
// or "arr[str,32000]" for arrays.
func (v Value) TypeName() string {
	if v.Type == TypeArray {
		return fmt.Sprintf("arr[%s,%d]", v.Elem, v.Len())
	}
	return v.Type.String()
}

// TensorInfo describes one tensor of the index.
type TensorInfo struct {
	Name   string
	Shape  []uint64 // ggml order: Shape[0] is the row length (ne[0])
	Type   TensorType
	Offset uint64 // from File.DataOffset
}

// NumElements returns the product of the tensor's dimensions.
func (t TensorInfo) NumElements() uint64 {
	n := uint64(1)
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Bytes returns the size of the tensor's data (ggml_nbytes), 0 for an
// unknown type.
func (t TensorInfo) Bytes() uint64 {
	bs := t.Type.BlockSize()
	if bs == 0 {
		return 0
	}
	return t.NumElements() / bs * t.Type.TypeSize()
}

// Open reads and validates the GGUF file at path. Tensor data is checked to
// lie within the file but not read.
func Open(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &FormatError{Path: path, Msg: "not a regular file"}
	}
	f, err := decode(bufio.NewReaderSize(fh, 1<<16), st.Size(), path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Read parses a GGUF image of the given size from r, as Open does for a
// file. TensorData reads from r afterwards, so r must stay usable.
func Read(r io.ReaderAt, size int64) (*File, error) {
	f, err := decode(bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 1<<16), size, "")
	if err != nil {
		return nil, err
	}
	f.ra = r
	return f, nil
}

// TensorData reads the data of the named tensor.
func (f *File) TensorData(name string) ([]byte, error) {
	t, ok := f.Tensor(name)
	if !ok {
		return nil, fmt.Errorf("%s: no tensor %q", f.name(), name)
	}
	ra := f.ra
	if ra == nil {
		fh, err := os.Open(f.Path)
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		ra = fh
	}
	buf := make([]byte, t.Bytes())
	if _, err := ra.ReadAt(buf, f.DataOffset+int64(t.Offset)); err != nil {
		return nil, fmt.Errorf("%s: reading tensor %s: %w", f.name(), name, err)
	}
	return buf, nil
}

// Tensor returns the index entry of the named tensor.
func (f *File) Tensor(name string) (TensorInfo, bool) {
	for _, t := range f.Tensors {
		if t.Name == name {
			return t, true
		}
	}
	return TensorInfo{}, false
}

func (f *File) name() string {
	if f.Path == "" {
		return "gguf"
	}
	return f.Path
}

// Lookup returns the typed value stored under key.
func (f *File) Lookup(key string) (Value, bool) {
	i, ok := f.index[key]
	if !ok {
		return Value{}, false
	}
	return f.KV[i].Value, true
}

// Get returns the Go value stored under key (see Value for the types).
func (f *File) Get(key string) (any, bool) {
	v, ok := f.Lookup(key)
	return v.Data, ok
}

// String returns a string value.
func (f *File) String(key string) (string, bool) {
	v, ok := f.Get(key)
	s, isStr := v.(string)
	return s, ok && isStr
}

// Uint returns a non-negative integer value of any integer type.
func (f *File) Uint(key string) (uint64, bool) {
	v, ok := f.Get(key)
	if !ok {
		return 0, false
	}
	return toUint(v)
}

// Int returns an integer value of any integer type that fits in an int64.
func (f *File) Int(key string) (int64, bool) {
	v, ok := f.Get(key)
	if !ok {
		return 0, false
	}
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	u, ok := toUint(v)
	if !ok || u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

func toUint(v any) (uint64, bool) {
	switch x := v.(type) {
	case uint8:
		return uint64(x), true
	case uint16:
		return uint64(x), true
	case uint32:
		return uint64(x), true
	case uint64:
		return x, true
	case int8:
		return uint64(x), x >= 0
	case int16:
		return uint64(x), x >= 0
	case int32:
		return uint64(x), x >= 0
	case int64:
		return uint64(x), x >= 0
	}
	return 0, false
}

// Float returns a float32 or float64 value as a float64.
func (f *File) Float(key string) (float64, bool) {
	v, _ := f.Get(key)
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// Bool returns a boolean value.
func (f *File) Bool(key string) (bool, bool) {
	v, ok := f.Get(key)
	b, isBool := v.(bool)
	return b, ok && isBool
}

// Strings returns an array-of-strings value as a new []string.
func (f *File) Strings(key string) ([]string, bool) {
	v, ok := f.Lookup(key)
	a, isArr := v.Data.([]any)
	if !ok || !isArr || v.Elem != TypeString {
		return nil, false
	}
	out := make([]string, len(a))
	for i, e := range a {
		out[i], _ = e.(string)
	}
	return out, true
}

// decoder reads the metadata part of a GGUF image sequentially, checking
// every length against what is left of the file before allocating for it.
type decoder struct {
	r       *bufio.Reader
	off     int64
	size    int64
	path    string
	buf     [8]byte
	scratch []byte // reused for strings, which are then copied once
}

func (d *decoder) errf(format string, args ...any) error {
	return &FormatError{Path: d.path, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) left() int64 { return d.size - d.off }

// read fills p, failing with a truncation error that names what was being
// read when the file ends first.
func (d *decoder) read(p []byte, what func() string) error {
	if int64(len(p)) > d.left() {
		return d.errf("truncated: file ends at byte %d while reading %s", d.size, what())
	}
	n, err := io.ReadFull(d.r, p)
	d.off += int64(n)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return d.errf("truncated: file ends at byte %d while reading %s", d.off, what())
	}
	return err
}

func (d *decoder) u32(what func() string) (uint32, error) {
	err := d.read(d.buf[:4], what)
	return binary.LittleEndian.Uint32(d.buf[:4]), err
}

func (d *decoder) u64(what func() string) (uint64, error) {
	err := d.read(d.buf[:8], what)
	return binary.LittleEndian.Uint64(d.buf[:8]), err
}

func (d *decoder) str(what func() string) (string, error) {
	n, err := d.u64(what)
	if err != nil {
		return "", err
	}
	if n > uint64(d.left()) {
		return "", d.errf("%s: string length %d exceeds the %d bytes left in the file (truncated or corrupt)", what(), n, d.left())
	}
	if uint64(cap(d.scratch)) < n {
		d.scratch = make([]byte, n)
	}
	b := d.scratch[:n]
	if err := d.read(b, what); err != nil {
		return "", err
	}
	return string(b), nil
}

func label(s string) func() string { return func() string { return s } }

func decode(r *bufio.Reader, size int64, path string) (*File, error) {
	d := &decoder{r: r, size: size, path: path}
	f := &File{Path: path, Size: size, Alignment: DefaultAlignment, index: map[string]int{}}

	var magic [4]byte
	if size < 4 {
		return nil, d.errf("not a GGUF file (%d bytes, too short for the magic)", size)
	}
	if err := d.read(magic[:], label("magic")); err != nil {
		return nil, err
	}
	if string(magic[:]) != Magic {
		return nil, d.errf("not a GGUF file (magic %q, want %q)", magic[:], Magic)
	}
	v, err := d.u32(label("version"))
	if err != nil {
		return nil, err
	}
	switch {
	case v == 0:
		return nil, d.errf("bad GGUF version 0")
	case v&0xFFFF == 0:
		return nil, d.errf("unsupported GGUF version %d (0x%08x): the file's byte order differs from this machine's", v, v)
	case v == 1:
		return nil, d.errf("unsupported GGUF version 1 (only versions 2 and 3 are read)")
	case v > Version:
		return nil, d.errf("unsupported GGUF version %d (only versions 2 and 3 are read)", v)
	}
	f.Version = v

	nTensors, err := d.u64(label("tensor count"))
	if err != nil {
		return nil, err
	}
	nKV, err := d.u64(label("metadata count"))
	if err != nil {
		return nil, err
	}
	// Smallest encodings: a KV is key length + type + one byte; a tensor
	// info is name length + dims count + type + offset.
	const minKV, minTensor = 8 + 4 + 1, 8 + 4 + 4 + 8
	if nKV > uint64(d.left())/minKV {
		return nil, d.errf("metadata count %d cannot fit in the %d bytes left in the file", nKV, d.left())
	}
	if nTensors > uint64(d.left())/minTensor {
		return nil, d.errf("tensor count %d cannot fit in the %d bytes left in the file", nTensors, d.left())
	}

	// Capacities are capped: the counts are only known to fit in the file,
	// and a slice element is larger than the smallest encoding it stands for.
	f.KV = make([]KV, 0, min(nKV, 1<<12))
	for i := uint64(0); i < nKV; i++ {
		kv, err := d.kv(i)
		if err != nil {
			return nil, err
		}
		if _, dup := f.index[kv.Key]; dup {
			return nil, d.errf("duplicate metadata key %q", kv.Key)
		}
		f.index[kv.Key] = len(f.KV)
		f.KV = append(f.KV, kv)
	}

	if v, ok := f.Lookup("general.alignment"); ok {
		// gguf.cpp reads it with gguf_get_val_u32, which aborts on any other type.
		a, isU32 := v.Data.(uint32)
		if !isU32 {
			return nil, d.errf("general.alignment has type %s, want u32", v.TypeName())
		}
		if a == 0 || a&(a-1) != 0 {
			return nil, d.errf("general.alignment %d is not a power of 2", a)
		}
		f.Alignment = uint64(a)
	}

	f.Tensors = make([]TensorInfo, 0, min(nTensors, 1<<12))
	names := make(map[string]bool, min(nTensors, 1<<12))
	for i := uint64(0); i < nTensors; i++ {
		t, err := d.tensorInfo(i)
		if err != nil {
			return nil, err
		}
		if names[t.Name] {
			return nil, d.errf("duplicate tensor name %q", t.Name)
		}
		names[t.Name] = true
		f.Tensors = append(f.Tensors, t)
	}

	// The data section starts at the next multiple of the alignment and
	// holds the tensors back to back, each padded to the alignment: gguf.cpp
	// rejects any other layout.
	f.DataOffset = int64(pad(uint64(d.off), f.Alignment))
	var want uint64
	for _, t := range f.Tensors {
		if t.Offset != want {
			return nil, d.errf("tensor %s has data offset %d, want %d (tensors must be stored in order, each padded to %d bytes)", t.Name, t.Offset, want, f.Alignment)
		}
		// want <= size+alignment here, so only adding Bytes can overflow.
		end, carry := bits.Add64(uint64(f.DataOffset)+t.Offset, t.Bytes(), 0)
		if carry != 0 || end > uint64(size) {
			return nil, d.errf("truncated: tensor %s ends at byte %d beyond file size %d", t.Name, end, size)
		}
		want = pad(t.Offset+t.Bytes(), f.Alignment)
	}
	return f, nil
}

func pad(n, align uint64) uint64 { return (n + align - 1) / align * align }

func (d *decoder) kv(i uint64) (KV, error) {
	at := d.off
	key, err := d.str(func() string { return fmt.Sprintf("key of metadata entry %d at byte %d", i, at) })
	if err != nil {
		return KV{}, err
	}
	if key == "" {
		// gguf.cpp asserts on an empty key, aborting the process.
		return KV{}, d.errf("metadata entry %d at byte %d has an empty key", i, at)
	}
	what := func() string { return fmt.Sprintf("metadata %q", key) }
	t, err := d.u32(what)
	if err != nil {
		return KV{}, err
	}
	typ := ValueType(t)
	if typ != TypeArray {
		v, err := d.scalar(typ, key)
		return KV{Key: key, Value: v}, err
	}
	et, err := d.u32(what)
	if err != nil {
		return KV{}, err
	}
	n, err := d.u64(what)
	if err != nil {
		return KV{}, err
	}
	v, err := d.array(ValueType(et), n, key)
	return KV{Key: key, Value: v}, err
}

func (d *decoder) scalar(typ ValueType, key string) (Value, error) {
	what := func() string { return fmt.Sprintf("metadata %q", key) }
	if typ == TypeString {
		s, err := d.str(what)
		return Value{Type: TypeString, Data: s}, err
	}
	sz := typ.size()
	if sz == 0 {
		return Value{}, d.errf("metadata %q has invalid type %d", key, uint32(typ))
	}
	b := d.buf[:sz]
	if err := d.read(b, what); err != nil {
		return Value{}, err
	}
	return Value{Type: typ, Data: scalarAt(typ, b)}, nil
}

func scalarAt(typ ValueType, b []byte) any {
	le := binary.LittleEndian
	switch typ {
	case TypeUint8:
		return b[0]
	case TypeInt8:
		return int8(b[0])
	case TypeBool:
		return b[0] != 0
	case TypeUint16:
		return le.Uint16(b)
	case TypeInt16:
		return int16(le.Uint16(b))
	case TypeUint32:
		return le.Uint32(b)
	case TypeInt32:
		return int32(le.Uint32(b))
	case TypeFloat32:
		return math.Float32frombits(le.Uint32(b))
	case TypeUint64:
		return le.Uint64(b)
	case TypeInt64:
		return int64(le.Uint64(b))
	case TypeFloat64:
		return math.Float64frombits(le.Uint64(b))
	}
	panic("gguf: scalarAt of non-scalar type " + typ.String())
}

func (d *decoder) array(et ValueType, n uint64, key string) (Value, error) {
	v := Value{Type: TypeArray, Elem: et}
	if et == TypeString {
		// Each string takes at least its 8-byte length.
		if n > uint64(d.left())/8 {
			return v, d.errf("metadata %q: array of %d strings cannot fit in the %d bytes left in the file", key, n, d.left())
		}
		a := make([]any, 0, min(n, 1<<16))
		for j := uint64(0); j < n; j++ {
			s, err := d.str(func() string { return fmt.Sprintf("metadata %q element %d", key, j) })
			if err != nil {
				return v, err
			}
			a = append(a, s)
		}
		v.Data = a
		return v, nil
	}
	sz := et.size()
	if sz == 0 {
		return v, d.errf("metadata %q is an array of invalid type %s", key, et)
	}
	hi, nbytes := bits.Mul64(n, uint64(sz))
	if hi != 0 || nbytes > uint64(d.left()) {
		return v, d.errf("metadata %q: array of %d %s values cannot fit in the %d bytes left in the file", key, n, et, d.left())
	}
	raw := make([]byte, nbytes)
	if err := d.read(raw, func() string { return fmt.Sprintf("metadata %q", key) }); err != nil {
		return v, err
	}
	v.Data = decodeArray(et, raw, int(n))
	return v, nil
}

func decodeArray(et ValueType, raw []byte, n int) []any {
	a := make([]any, n)
	sz := int(et.size())
	for i := range a {
		a[i] = scalarAt(et, raw[i*sz:])
	}
	return a
}

func (d *decoder) tensorInfo(i uint64) (TensorInfo, error) {
	at := d.off
	name, err := d.str(func() string { return fmt.Sprintf("name of tensor %d at byte %d", i, at) })
	if err != nil {
		return TensorInfo{}, err
	}
	if len(name) > MaxNameLen {
		return TensorInfo{}, d.errf("tensor %d name %q is too long: %d bytes, at most %d", i, name, len(name), MaxNameLen)
	}
	what := func() string { return "tensor " + name }
	nd, err := d.u32(what)
	if err != nil {
		return TensorInfo{}, err
	}
	if nd > MaxDims {
		return TensorInfo{}, d.errf("tensor %s has %d dimensions, at most %d", name, nd, MaxDims)
	}
	t := TensorInfo{Name: name, Shape: make([]uint64, nd)}
	var ne [MaxDims]int64
	for j := range ne {
		ne[j] = 1
		if j >= int(nd) {
			continue
		}
		x, err := d.u64(what)
		if err != nil {
			return TensorInfo{}, err
		}
		// gguf.cpp reads dimensions as int64 and divides by them, so zero
		// would crash it and negative ones are invalid.
		if int64(x) <= 0 {
			return TensorInfo{}, d.errf("tensor %s dimension %d is %d", name, j, int64(x))
		}
		ne[j] = int64(x)
		t.Shape[j] = x
	}
	if math.MaxInt64/ne[1] <= ne[0] ||
		math.MaxInt64/ne[2] <= ne[0]*ne[1] ||
		math.MaxInt64/ne[3] <= ne[0]*ne[1]*ne[2] {
		return TensorInfo{}, d.errf("tensor %s shape %v has too many elements", name, t.Shape)
	}
	typ, err := d.u32(what)
	if err != nil {
		return TensorInfo{}, err
	}
	t.Type = TensorType(typ)
	if !t.Type.Valid() {
		return TensorInfo{}, d.errf("tensor %s has invalid type %d", name, typ)
	}
	if bs := t.Type.BlockSize(); uint64(ne[0])%bs != 0 {
		return TensorInfo{}, d.errf("tensor %s of type %s has rows of %d elements, not a multiple of its block size %d", name, t.Type, ne[0], bs)
	}
	if hi, _ := bits.Mul64(t.NumElements()/t.Type.BlockSize(), t.Type.TypeSize()); hi != 0 {
		return TensorInfo{}, d.errf("tensor %s shape %v is too large", name, t.Shape)
	}
	if t.Offset, err = d.u64(what); err != nil {
		return TensorInfo{}, err
	}
	return t, nil
}
