"""Checks `lmeval serve` with the official OpenAI Python client (PyPI's
`openai`): completions report the tokens the model generated, whose texts
add up to the text, with their log-probabilities; usage counts are exact;
errors come back as the client's exception types.

Usage: python openai_check.py BASE_URL [API_KEY]
(BASE_URL as the client takes it: http://127.0.0.1:8000/v1). Prints one
line per check and exits 1 if any fails. Run by cmd/lmeval's
TestServeOpenAIClient through scripts/serve-clients/check.sh.
"""

import sys

import openai

failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    if not ok:
        failures.append(name)


def completion_tokens_as_generated(client, model):
    for max_tokens in (1, 3, 8):
        r = client.completions.create(model=model, prompt="Once upon a time", max_tokens=max_tokens,
                                      temperature=0, logprobs=1)
        c = r.choices[0]
        lp = c.logprobs
        name = f"greedy max_tokens={max_tokens}"
        check(name + ": completion_tokens <= max_tokens", r.usage.completion_tokens <= max_tokens,
              f"{r.usage.completion_tokens}")
        check(name + ": one log-prob per token", len(lp.tokens) == len(lp.token_logprobs) == len(lp.top_logprobs)
              == len(lp.text_offset), repr(lp))
        check(name + ": tokens counted in usage", len(lp.tokens) <= r.usage.completion_tokens <= len(lp.tokens) + 1,
              f"{len(lp.tokens)} tokens, usage {r.usage.completion_tokens}")
        check(name + ": text is its tokens joined", c.text == "".join(lp.tokens), f"{c.text!r} vs {lp.tokens!r}")
        for i, (tok, v, top) in enumerate(zip(lp.tokens, lp.token_logprobs, lp.top_logprobs)):
            best = max(top, key=top.get)
            check(f"{name}: token {i} {tok!r} is the greedy one", best == tok and v == top[best],
                  f"{tok!r} {v} vs top {best!r} {top[best]}")
        check(name + ": usage totals", r.usage.total_tokens == r.usage.prompt_tokens + r.usage.completion_tokens,
              repr(r.usage))
        if max_tokens == 3:
            check(name + ": three tokens, finish_reason length", len(lp.tokens) == 3 and c.finish_reason == "length",
                  f"{lp.tokens!r} {c.finish_reason}")


def stop_and_sampling(client, model):
    r = client.completions.create(model=model, prompt="Once upon a time", max_tokens=60, temperature=0,
                                  stop=["."], logprobs=2)
    c = r.choices[0]
    check("stop: text before the stop string", "." not in c.text and c.finish_reason == "stop",
          f"{c.text!r} {c.finish_reason}")
    check("stop: text is its tokens joined", c.text == "".join(c.logprobs.tokens), f"{c.text!r} {c.logprobs.tokens!r}")
    for seed in (1, 5, 9):
        r = client.completions.create(model=model, prompt="Lily", max_tokens=9, temperature=0.9, top_p=0.95,
                                      seed=seed, logprobs=3)
        c = r.choices[0]
        check(f"sampled seed={seed}: at most max_tokens", 0 < r.usage.completion_tokens <= 9, repr(r.usage))
        check(f"sampled seed={seed}: text is its tokens joined", c.text == "".join(c.logprobs.tokens),
              f"{c.text!r} {c.logprobs.tokens!r}")
        again = client.completions.create(model=model, prompt="Lily", max_tokens=9, temperature=0.9, top_p=0.95,
                                          seed=seed, logprobs=3)
        check(f"sampled seed={seed}: reproducible", again.choices[0].text == c.text,
              f"{again.choices[0].text!r} vs {c.text!r}")


def echo(client, model):
    r = client.completions.create(model=model, prompt="Once upon a time, there was", max_tokens=0, echo=True,
                                  logprobs=1)
    c = r.choices[0]
    lp = c.logprobs
    check("echo: the prompt's tokens, the first without a log-prob",
          lp.token_logprobs[0] is None and all(v is not None for v in lp.token_logprobs[1:])
          and len(lp.tokens) == r.usage.prompt_tokens and r.usage.completion_tokens == 0,
          f"{lp.token_logprobs!r} {r.usage!r}")
    check("echo: text is the prompt", c.text == "Once upon a time, there was", repr(c.text))


def errors(client, model):
    try:
        client.completions.create(model=model, prompt="x", max_tokens=-1)
        check("max_tokens -1 refused", False, "no error")
    except openai.BadRequestError as e:
        check("max_tokens -1 refused (400, param max_tokens)", e.status_code == 400 and
              (e.body or {}).get("param") == "max_tokens", repr(e.body))
    try:
        client.chat.completions.create(model=model, messages=[{"role": "user", "content": "hi"}], max_tokens=4)
        check("chat: answered with a template", True)
    except openai.BadRequestError as e:
        check("chat without a template: 400 naming messages", (e.body or {}).get("param") == "messages", repr(e.body))


def main():
    base = sys.argv[1]
    key = sys.argv[2] if len(sys.argv) > 2 else "none"
    client = openai.OpenAI(base_url=base, api_key=key, max_retries=0, timeout=120)
    models = client.models.list().data
    check("models: one", len(models) == 1, repr(models))
    model = models[0].id
    if len(sys.argv) > 2:
        try:
            openai.OpenAI(base_url=base, api_key="wrong", max_retries=0).models.list()
            check("wrong API key refused", False, "no error")
        except openai.AuthenticationError:
            check("wrong API key refused (401)", True)
    completion_tokens_as_generated(client, model)
    stop_and_sampling(client, model)
    echo(client, model)
    errors(client, model)
    print(f"openai {openai.__version__}: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
