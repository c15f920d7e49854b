package main

import (
	_ "lmeval/backend/llama"  // registers the "llama" and "gguf" models
	_ "lmeval/backend/remote" // registers "local-completions" and "local-chat-completions"
	"lmeval/engine"
)

func init() {
	engineInfo = func() (string, string) { return engine.LlamaCppCommit, engine.SystemInfo() }
}
