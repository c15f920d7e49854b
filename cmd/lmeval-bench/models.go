package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/lmeval/lmeval/engine"
	"github.com/lmeval/lmeval/gguf"
	"github.com/lmeval/lmeval/internal/units"
)

// writeModels writes the random model of shape sh into dir twice: F16,
// with the project's GGUF writer (ggufwrite), and Q4_K_M, quantized from
// that file by engine.Quantize (llama.cpp's llama_model_quantize, as
// `lmeval sweep` does), and prints their paths, one per line. The device
// check writes the 8B Llama shape this way on the GPU machine
// (-random-embd 4096 -random-layers 32 -random-ff 14336
// -random-kv-heads 8), where no model can be downloaded.
func writeModels(dir string, sh shape, vocab int, vocabFile string, threads int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(dir, fmt.Sprintf("random-%dx%d", sh.embd, sh.layers))
	f16, q4 := base+"-f16.gguf", base+"-q4_k_m.gguf"
	t0 := time.Now()
	if err := writeRandom(f16, sh, gguf.F16, vocab, vocabFile); err != nil {
		return fmt.Errorf("writing %s: %w", f16, err)
	}
	log.Printf("wrote %s (%s) in %.1f s", f16, fileSize(f16), time.Since(t0).Seconds())
	t0 = time.Now()
	if err := engine.Quantize(f16, q4, engine.QuantizeOptions{FileType: "Q4_K_M", Threads: threads}); err != nil {
		return fmt.Errorf("quantizing %s: %w", f16, err)
	}
	log.Printf("wrote %s (%s) in %.1f s", q4, fileSize(q4), time.Since(t0).Seconds())
	fmt.Println(f16)
	fmt.Println(q4)
	return nil
}

func fileSize(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return "?"
	}
	return units.Bytes(fi.Size())
}
