"""Writes vectors.json: Python 3.11's repr/str of floats, repr and ascii of strings,
json.dumps of strings and ast.literal_eval of literals, for pyval's tests.
Run: python3 gen_vectors.py > vectors.json"""
import ast, json, random, struct, unicodedata

random.seed(7)
floats = [0.0, -0.0, 1.0, -1.5, 0.1, 1/3, 1e-4, 1e-5, 9.99e-5, 1e15, 1e16, 1e22,
          1234567.5, 123456789012345.6, 1e15 + 0.5, 2.5e-300, 1.7976931348623157e308,
          5e-324, 100.0, 12345678901234567890.0, float('inf'), float('-inf'), float('nan')]
for _ in range(200):
    floats.append(struct.unpack('<d', struct.pack('<Q', random.getrandbits(64)))[0])
for _ in range(100):
    floats.append(round(random.uniform(-1e7, 1e7), random.randint(0, 6)))
out = {"floats": [[struct.pack('>d', f).hex(), repr(f)] for f in floats]}

chars = [c for c in range(0, 0x3000)] + [0xfeff, 0xfffd, 0xffff, 0x10000, 0x1f600, 0xe0001, 0xe000, 0x10ffff]
# Unassigned characters are left out but for a few that stay unassigned:
# Go's Unicode tables are newer than Python 3.11's.
chars = [c for c in chars if not 0xd800 <= c < 0xe000 and
         (unicodedata.category(chr(c)) != "Cn" or c in (0x378, 0x379, 0xffff))]
strings = ["", "a", "it's", 'say "hi"', "both ' and \"", "back\\slash", "tab\there\nnl\r"]
strings += ["".join(chr(c) for c in chars[i:i + 64]) for i in range(0, len(chars), 64)]
out["strings"] = [[s, repr(s), json.dumps(s), json.dumps(s, ensure_ascii=False), ascii(s)] for s in strings]

literals = ["[1, -2, 3.5, 1e-05, True, False, None]", "('a',)", "('a')", "1, 2", "(1, 2,)",
            "{'k': (1, 2), \"j\": [1]}", "{1: 'a', 2.5: 'b', False: 'c', None: 'd'}",
            "'ab' 'cd'", "r'\\d' 'x'", "u'x'", "'''a\nb'''", "'\\x41\\u00e9\\U0001F600\\101\\0'", "'\\q'",
            "\n[1]", "# c\n1", " [1]\n", "[\n 'a',\n 'b',\n]", "0x1F", "0o17", "0b101", "1_000", "00", "-1.5e3",
            "+1", "- 1", ".5", "5.", "[1, 2", "'x", "1 2", "01", "[a]", "f(1)", "", "abc", "True1",
            "'a'\n'b'", "{'a': 1 'b': 2}", "1j", "{1, 2}", "b'x'", "99999999999999999999"]
lits = []
for s in literals:
    try:
        v = ast.literal_eval(s)
        if isinstance(v, dict):
            v = {str(k): x for k, x in v.items()}
        if isinstance(v, (set, bytes, complex)) or (isinstance(v, int) and abs(v) >= 2**63):
            raise ValueError("not supported by pyval")
        lits.append([s, json.dumps(v, sort_keys=True)])
    except Exception:
        lits.append([s, None])
out["literals"] = lits
print(json.dumps(out, indent=1))
