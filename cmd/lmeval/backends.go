package main

import (
	"fmt"

	_ "github.com/lmeval/lmeval/backend/llama" // registers the "llama" and "gguf" models
	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/internal/units"
)

func init() {
	engineInfo = func() (string, string) { return engine.LlamaCppCommit, engine.SystemInfo() }
	engineDevices = func() []string {
		var out []string
		for _, d := range engine.Devices() {
			out = append(out, fmt.Sprintf("%s (%s, %s): %s, %s free of %s",
				d.Name, d.Backend, d.Type, d.Description, units.Bytes(int64(d.Free)), units.Bytes(int64(d.Total))))
		}
		return out
	}
}
