#!/usr/bin/env python3
"""Regenerate ../unicode_tables.go from this Python's unicodedata.

usage: cd python/jinja && python3 testdata/unicode_tables_gen.py && gofmt -w unicode_tables.go
"""
import unicodedata


def ranges(cps):
    out, start, prev = [], None, None
    for c in cps:
        if start is None:
            start = prev = c
        elif c == prev + 1:
            prev = c
        else:
            out.append((start, prev))
            start = prev = c
    out.append((start, prev))
    return out


def table(name, cps, doc):
    lines = [f"// {doc}", f"var {name} = &unicode.RangeTable{{"]
    r16 = [r for r in ranges(cps) if r[1] <= 0xFFFF]
    r32 = [r for r in ranges(cps) if r[1] > 0xFFFF]
    if r16:
        lines.append("\tR16: []unicode.Range16{")
        lines += [f"\t\t{{0x{a:04x}, 0x{b:04x}, 1}}," for a, b in r16]
        lines.append("\t},")
    if r32:
        lines.append("\tR32: []unicode.Range32{")
        lines += [f"\t\t{{0x{a:x}, 0x{b:x}, 1}}," for a, b in r32]
        lines.append("\t},")
    lines.append("}")
    return "\n".join(lines)


ds = [cp for cp in range(0x110000) if chr(cp).isdigit() and not chr(cp).isdecimal()]
ns = [cp for cp in range(0x110000) if chr(cp).isnumeric() and not chr(cp).isdigit()
      and unicodedata.category(chr(cp)) not in ("Nl", "No")]
src = (
    "package jinja\n\n"
    "// Code generated from Python 3.11's unicodedata (str.isdigit, str.isnumeric);\n"
    "// DO NOT EDIT. The generator is in unicode_tables_gen.py.\n\n"
    'import "unicode"\n\n'
    + table("pyDigitNotDecimal", ds, "pyDigitNotDecimal: characters for which str.isdigit() is true but str.isdecimal() false (superscripts, circled digits, ...).")
    + "\n\n"
    + table("pyNumericLetter", ns, "pyNumericLetter: letters (CJK numerals) for which str.isnumeric() is true.")
    + "\n"
)
with open("unicode_tables.go", "w") as f:
    f.write(src)
