package gguf

import (
	"fmt"
	"strings"
)

// TensorType is a ggml_type: the element encoding of a tensor.
// The numbering is ggml's (ggml/include/ggml.h) and is what GGUF files store.
type TensorType uint32

// Tensor types. Gaps in the numbering are types ggml has removed.
const (
	F32     TensorType = 0
	F16     TensorType = 1
	Q4_0    TensorType = 2
	Q4_1    TensorType = 3
	Q5_0    TensorType = 6
	Q5_1    TensorType = 7
	Q8_0    TensorType = 8
	Q8_1    TensorType = 9
	Q2_K    TensorType = 10
	Q3_K    TensorType = 11
	Q4_K    TensorType = 12
	Q5_K    TensorType = 13
	Q6_K    TensorType = 14
	Q8_K    TensorType = 15
	IQ2_XXS TensorType = 16
	IQ2_XS  TensorType = 17
	IQ3_XXS TensorType = 18
	IQ1_S   TensorType = 19
	IQ4_NL  TensorType = 20
	IQ3_S   TensorType = 21
	IQ2_S   TensorType = 22
	IQ4_XS  TensorType = 23
	I8      TensorType = 24
	I16     TensorType = 25
	I32     TensorType = 26
	I64     TensorType = 27
	F64     TensorType = 28
	IQ1_M   TensorType = 29
	BF16    TensorType = 30
	TQ1_0   TensorType = 34
	TQ2_0   TensorType = 35
	MXFP4   TensorType = 39
)

// typeTraits mirrors ggml.c's type_traits: elements per block and bytes per
// block. Block byte sizes follow the static_asserts in ggml-common.h
// (QK_K = 256, K_SCALE_SIZE = 12, IQ3S_N_SCALE = QK_K/64).
var typeTraits = map[TensorType]struct {
	name      string
	blockSize uint64
	typeSize  uint64
}{
	F32:     {"F32", 1, 4},
	F16:     {"F16", 1, 2},
	Q4_0:    {"Q4_0", 32, 2 + 16},
	Q4_1:    {"Q4_1", 32, 2*2 + 16},
	Q5_0:    {"Q5_0", 32, 2 + 4 + 16},
	Q5_1:    {"Q5_1", 32, 2*2 + 4 + 16},
	Q8_0:    {"Q8_0", 32, 2 + 32},
	Q8_1:    {"Q8_1", 32, 2*2 + 32},
	Q2_K:    {"Q2_K", 256, 2*2 + 256/16 + 256/4},
	Q3_K:    {"Q3_K", 256, 2 + 256/4 + 256/8 + 12},
	Q4_K:    {"Q4_K", 256, 2*2 + 12 + 256/2},
	Q5_K:    {"Q5_K", 256, 2*2 + 12 + 256/2 + 256/8},
	Q6_K:    {"Q6_K", 256, 2 + 256/16 + 3*256/4},
	Q8_K:    {"Q8_K", 256, 4 + 256 + 256/16*2},
	IQ2_XXS: {"IQ2_XXS", 256, 2 + 256/8*2},
	IQ2_XS:  {"IQ2_XS", 256, 2 + 256/8*2 + 256/32},
	IQ3_XXS: {"IQ3_XXS", 256, 2 + 3*(256/8)},
	IQ1_S:   {"IQ1_S", 256, 2 + 256/8 + 256/16},
	IQ4_NL:  {"IQ4_NL", 32, 2 + 16},
	IQ3_S:   {"IQ3_S", 256, 2 + 13*(256/32) + 256/64},
	IQ2_S:   {"IQ2_S", 256, 2 + 256/4 + 256/16},
	IQ4_XS:  {"IQ4_XS", 256, 2 + 2 + 256/64 + 256/2},
	I8:      {"I8", 1, 1},
	I16:     {"I16", 1, 2},
	I32:     {"I32", 1, 4},
	I64:     {"I64", 1, 8},
	F64:     {"F64", 1, 8},
	IQ1_M:   {"IQ1_M", 256, 256/8 + 256/16 + 256/32},
	BF16:    {"BF16", 1, 2},
	TQ1_0:   {"TQ1_0", 256, 2 + 256/64 + (256-4*256/64)/5},
	TQ2_0:   {"TQ2_0", 256, 2 + 256/4},
	MXFP4:   {"MXFP4", 32, 1 + 16},
}

// String returns the type's name in upper case as GGUF tools print it
// ("F32", "Q4_K", "BF16"), or "TensorType(N)" for an unknown value.
func (t TensorType) String() string {
	if tr, ok := typeTraits[t]; ok {
		return tr.name
	}
	return fmt.Sprintf("TensorType(%d)", uint32(t))
}

// Valid reports whether t is a type ggml can store in a GGUF file.
func (t TensorType) Valid() bool {
	_, ok := typeTraits[t]
	return ok
}

// BlockSize returns the number of elements in one block of t (1 for plain
// types, 32 or 256 for quantized ones), or 0 for an unknown type.
func (t TensorType) BlockSize() uint64 { return typeTraits[t].blockSize }

// TypeSize returns the number of bytes one block of t takes, or 0 for an
// unknown type.
func (t TensorType) TypeSize() uint64 { return typeTraits[t].typeSize }

// ParseTensorType returns the type named s, ignoring case ("q4_k", "BF16").
func ParseTensorType(s string) (TensorType, error) {
	for t, tr := range typeTraits {
		if strings.EqualFold(tr.name, s) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown tensor type %q", s)
}

// ValueType is the type of a metadata value (gguf_type).
type ValueType uint32

// Metadata value types, numbered as GGUF stores them.
const (
	TypeUint8   ValueType = 0
	TypeInt8    ValueType = 1
	TypeUint16  ValueType = 2
	TypeInt16   ValueType = 3
	TypeUint32  ValueType = 4
	TypeInt32   ValueType = 5
	TypeFloat32 ValueType = 6
	TypeBool    ValueType = 7
	TypeString  ValueType = 8
	TypeArray   ValueType = 9
	TypeUint64  ValueType = 10
	TypeInt64   ValueType = 11
	TypeFloat64 ValueType = 12
)

var valueTypeNames = [...]string{"u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "str", "arr", "u64", "i64", "f64"}

// String returns gguf.cpp's short name of the type ("u32", "str", "arr").
func (t ValueType) String() string {
	if int(t) < len(valueTypeNames) {
		return valueTypeNames[t]
	}
	return fmt.Sprintf("ValueType(%d)", uint32(t))
}

// size returns the encoded size of a scalar of type t; 0 for strings,
// arrays and unknown types.
func (t ValueType) size() int64 {
	switch t {
	case TypeUint8, TypeInt8, TypeBool:
		return 1
	case TypeUint16, TypeInt16:
		return 2
	case TypeUint32, TypeInt32, TypeFloat32:
		return 4
	case TypeUint64, TypeInt64, TypeFloat64:
		return 8
	}
	return 0
}
