package main

import (
	_ "lmeval/backend/llama" // registers the "llama" and "gguf" models
	"lmeval/engine"
)

func init() {
	engineInfo = func() (string, string) { return engine.LlamaCppCommit, engine.SystemInfo() }
}
