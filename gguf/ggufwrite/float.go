package ggufwrite

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/lmeval/lmeval/gguf"
)

// Float16 converts f to IEEE 754 binary16 bits, rounding to nearest with
// ties to even: values beyond the largest half (65504) round to infinity
// from 65520 on, tiny values round through the subnormals to zero, and NaN
// stays a (quiet) NaN.
func Float16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return sign | 0x7e00 | uint16(mant>>13)
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15 // the half's biased exponent
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		// Subnormal half: the value in units of 2^-24, from the float's
		// 24-bit significand shifted right by 14-e bits.
		shift := uint(14 - e)
		if shift > 24 {
			return sign // below half of the smallest subnormal
		}
		full := mant | 0x800000
		m := full >> shift
		rem := full & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && m&1 == 1 {
			m++ // may carry into the smallest normal, whose encoding follows
		}
		return sign | uint16(m)
	}
	h := uint32(e)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
		h++ // a carry into the exponent is right, up to infinity
	}
	return sign | uint16(h)
}

// BFloat16 converts f to bfloat16 bits (the top half of a float32),
// rounding to nearest with ties to even as ggml's GGML_FP32_TO_BF16 does;
// NaN stays a quiet NaN.
func BFloat16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// EncodeFloats encodes values as tensor data of type F32, F16, BF16 or F64.
func EncodeFloats(typ gguf.TensorType, values []float32) ([]byte, error) {
	le := binary.LittleEndian
	var b []byte
	switch typ {
	case gguf.F32:
		b = make([]byte, 0, 4*len(values))
		for _, v := range values {
			b = le.AppendUint32(b, math.Float32bits(v))
		}
	case gguf.F16:
		b = make([]byte, 0, 2*len(values))
		for _, v := range values {
			b = le.AppendUint16(b, Float16(v))
		}
	case gguf.BF16:
		b = make([]byte, 0, 2*len(values))
		for _, v := range values {
			b = le.AppendUint16(b, BFloat16(v))
		}
	case gguf.F64:
		b = make([]byte, 0, 8*len(values))
		for _, v := range values {
			b = le.AppendUint64(b, math.Float64bits(float64(v)))
		}
	default:
		return nil, fmt.Errorf("cannot encode floats as %v (only F32, F16, BF16, F64)", typ)
	}
	return b, nil
}
