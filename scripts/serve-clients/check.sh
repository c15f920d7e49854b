#!/usr/bin/env bash
# Checks `lmeval serve` with the official OpenAI Python client: makes the
# virtual environment build/serve-clients from requirements.txt (PyPI;
# once), then runs cmd/lmeval's TestServeOpenAIClient, which starts the
# server on stories260K and runs openai_check.py against it.
# LMEVAL_REQUIRE_OPENAI=1 makes the test fail rather than skip without it.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=build/serve-clients
if ! "$venv/bin/python" -c 'import openai' 2>/dev/null; then
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q -r scripts/serve-clients/requirements.txt
fi
LMEVAL_REQUIRE_OPENAI=1 make TESTPKGS=./cmd/lmeval TESTFLAGS="-run 'TestServeOpenAIClient' -v" test
