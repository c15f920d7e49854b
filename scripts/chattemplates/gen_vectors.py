#!/usr/bin/env python3
"""Renders every template of chat/testdata/templates with transformers.

For each template it writes chat/testdata/vectors/NAME.json: the
conversations lm-eval sends (a system instruction, few-shot turns, a
gen_prefix to continue, Unicode, empty and whitespace-edged messages, ...)
rendered by transformers' own tokenizer.apply_chat_template(conversation,
tokenize=False, add_generation_prompt=..., continue_final_message=...,
**kwargs) at the version in requirements.txt, or the exception it raises.
Each case also records what lm-eval's HFLM.apply_chat_template gives
(lm_eval/models/huggingface.py: continue_final_message=not
add_generation_prompt, and on jinja2's TemplateError a second try without
the system messages).

The clock is frozen at NOW, so strftime_now renders a known date; lmeval's
renderer takes the clock as a parameter and the Go test passes the same.
chat/corpus_test.go replays the vectors with no Python.

Usage: build/chattemplates-venv/bin/python scripts/chattemplates/gen_vectors.py
(`make chat-vectors` builds the environment and runs it).
"""

import datetime as _dt
import json
import sys
from pathlib import Path

import jinja2
import transformers
from tokenizers import Tokenizer, models
from transformers import PreTrainedTokenizerFast
from transformers.utils import chat_template_utils

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "chat" / "testdata" / "templates"
VECTORS = ROOT / "chat" / "testdata" / "vectors"
# Short templates written for this test, one feature of transformers'
# environment each (tojson's arguments, the sandbox, {% generation %}, ...).
FEATURES = ROOT / "chat" / "testdata" / "features"

NOW = _dt.datetime(2025, 3, 7, 9, 5, 3)


class _FrozenDatetime(_dt.datetime):
    @classmethod
    def now(cls, tz=None):
        return NOW


# strftime_now reads the module's datetime when it is called.
chat_template_utils.datetime = _FrozenDatetime

TOKENS = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}

SYS = "You are a careful assistant. Answer with one word."
U1, A1 = "What is 2 + 2?", "4"
U2, A2 = "What colour is the sky on a clear day?", "Blue"
Q = "What is the capital of France?"


def sys_(c):
    return {"role": "system", "content": c}


def user(c):
    return {"role": "user", "content": c}


def asst(c):
    return {"role": "assistant", "content": c}


FEWSHOT = [user(U1), asst(A1), user(U2), asst(A2)]

# (name, messages, add_generation_prompt, continue_final_message, kwargs, tokens)
CASES = [
    ("multiturn_system", [sys_(SYS)] + FEWSHOT + [user(Q)], True, False, {}, TOKENS),
    ("multiturn", FEWSHOT + [user(Q)], True, False, {}, TOKENS),
    ("single_turn_fewshot_system", [sys_(SYS), user(f"Q: {U1}\nA: {A1}\n\nQ: {U2}\nA: {A2}\n\nQ: {Q}\nA:")], True, False, {}, TOKENS),
    ("single_user", [user(Q)], True, False, {}, TOKENS),
    ("single_user_no_prompt", [user(Q)], False, False, {}, TOKENS),
    ("gen_prefix", [sys_(SYS), user(Q), asst("The answer is")], False, True, {}, TOKENS),
    ("gen_prefix_trailing_space", [user(Q), asst("Answer: ")], False, True, {}, TOKENS),
    ("gen_prefix_multiturn", [user(U1), asst(A1), user(Q), asst("Let me think.\n")], False, True, {}, TOKENS),
    ("unicode", [sys_("Réponds en français — «guillemets» 日本語 🙂"),
                 user("¿Qué es π? Ça coûte 5\u00a0€. Ω ≠ ω; עברית; 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"),
                 asst("π ≈ 3.14159 ✓"), user("Et e^{iπ} ?")], True, False, {}, TOKENS),
    ("unicode_continue", [user("Écris «bonjour» en 日本語"), asst("こんにちは — ")], False, True, {}, TOKENS),
    ("empty_contents", [sys_(""), user("")], True, False, {}, TOKENS),
    ("empty_continue", [user(""), asst("")], False, True, {}, TOKENS),
    ("whitespace_edges", [user("  padded question \n"), asst(" spaced answer\n\n"), user("\tlast question\n")], True, False, {}, TOKENS),
    ("template_text_in_content", [user("{{ bos_token }} {% if true %}x{% endif %} <|im_end|> <start_of_turn> [INST] </s>")], True, False, {}, TOKENS),
    ("system_only", [sys_(SYS)], True, False, {}, TOKENS),
    ("non_alternating", [user(U1), user(Q)], True, False, {}, TOKENS),
    ("assistant_first", [asst("Hello."), user(Q)], True, False, {}, TOKENS),
    ("empty_conversation", [], True, False, {}, TOKENS),
    ("thinking_on", [sys_(SYS)] + FEWSHOT + [user(Q)], True, False, {"enable_thinking": True}, TOKENS),
    ("thinking_off", [user(Q)], True, False, {"enable_thinking": False}, TOKENS),
    ("thinking_off_continue", [user(Q), asst("The answer is")], False, True, {"enable_thinking": False}, TOKENS),
    ("bos_eos_only", [sys_(SYS)] + FEWSHOT + [user(Q)], True, False, {}, {"bos_token": "<s>", "eos_token": "</s>"}),
]


def tokenizer(template, tokens):
    vocab = {t: i for i, t in enumerate(dict.fromkeys(["<unk>"] + list(tokens.values())))}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    return PreTrainedTokenizerFast(tokenizer_object=backend, chat_template=template, **tokens)


def describe(e):
    return {
        "type": type(e).__name__,
        "template_error": isinstance(e, jinja2.exceptions.TemplateError),
        "message": str(e),
    }


def render(tok, messages, agp, cfm, kwargs):
    try:
        return {"text": tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=agp,
                                                continue_final_message=cfm, **kwargs)}
    except Exception as e:  # the exception is the expected value
        return {"error": describe(e)}


def hflm(tok, messages, agp, kwargs):
    """lm-eval's HFLM.apply_chat_template (lm_eval/models/huggingface.py)."""
    try:
        return {"text": tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=agp,
                                                continue_final_message=not agp, **kwargs)}
    except jinja2.exceptions.TemplateError:
        pass
    except Exception as e:
        return {"error": describe(e)}
    messages = [m for m in messages if m["role"] != "system"]
    out = render(tok, messages, agp, not agp, kwargs)
    out["fallback"] = True
    return out


# strftime_now's formats: the ones real templates use, every directive
# glibc knows, its flags, and what it keeps as written.
STRFTIME_FORMATS = [
    "%d %b %Y", "%Y-%m-%d", "%B %d, %Y", "%A, %B %-d, %Y", "%-d %B %Y", "%H:%M", "%I:%M %p",
    "%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %n %p %P %r %R %S %t %T %u %U %V %w %W %x %X %y %Y %%",
    "%f|%z|%Z", "%_d|%-m|%05Y|%^a|%^B|%10A|%3d|%-j", "%Q %E %O %q 100%", "%",
]
STRFTIME_TIMES = [NOW, _dt.datetime(2023, 1, 1, 0, 0, 0), _dt.datetime(2024, 12, 31, 12, 59, 59, 123456),
                  _dt.datetime(2021, 1, 3, 23, 7, 9), _dt.datetime(1999, 2, 28, 11, 30, 0)]


def strftime_vectors():
    out = []
    for t in STRFTIME_TIMES:
        for f in STRFTIME_FORMATS:
            out.append({"time": t.isoformat(), "format": f, "want": t.strftime(f)})
    with open(ROOT / "chat" / "testdata" / "strftime.json", "w", encoding="utf-8") as f:
        json.dump({"made_by": "scripts/chattemplates/gen_vectors.py", "python": sys.version.split()[0], "cases": out},
                  f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    strftime_vectors()
    stats = {"text": 0, "error": 0}
    n = render_dir(TEMPLATES, VECTORS, "", stats)
    if n == 0:
        sys.exit("gen_vectors.py: no templates (run collect.py first)")
    f = render_dir(FEATURES, VECTORS / "features", "../features/", stats)
    print(f"gen_vectors.py: {n} templates and {f} feature templates, {stats['text']} renders, {stats['error']} errors")


def render_dir(src, dst, prefix, stats):
    dst.mkdir(parents=True, exist_ok=True)
    for old in dst.glob("*.json"):
        old.unlink()
    names = sorted(p.stem for p in src.glob("*.jinja"))
    for name in names:
        template = (src / f"{name}.jinja").read_text(encoding="utf-8")
        cases = []
        for cname, messages, agp, cfm, kwargs, tokens in CASES:
            tok = tokenizer(template, tokens)
            case = {"name": cname, "messages": messages, "add_generation_prompt": agp,
                    "continue_final_message": cfm, "kwargs": kwargs, "tokens": tokens}
            case["transformers"] = render(tok, messages, agp, cfm, kwargs)
            stats["text" if "text" in case["transformers"] else "error"] += 1
            if cfm == (not agp):
                case["lm_eval"] = hflm(tok, messages, agp, kwargs)
            cases.append(case)
        doc = {
            "template": f"{prefix}{name}.jinja",
            "made_by": "scripts/chattemplates/gen_vectors.py",
            "transformers": transformers.__version__,
            "jinja2": jinja2.__version__,
            "now": NOW.isoformat(),
            "cases": cases,
        }
        with open(dst / f"{name}.json", "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=1)
            f.write("\n")
    return len(names)


if __name__ == "__main__":
    main()
