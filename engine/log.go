package engine

import (
	"context"
	"log/slog"
	"strings"
	"sync"
)

// llama.cpp's log goes to a slog.Logger. By default it is slog.Default()
// with every line at Debug level except errors, so it stays quiet unless
// the program enables debug logging.
type logBuffer struct {
	mu     sync.Mutex
	logger *slog.Logger
	line   strings.Builder
	level  slog.Level
}

var logState logBuffer

// SetLogger sends llama.cpp's log to l (nil: slog.Default()).
func SetLogger(l *slog.Logger) {
	logState.mu.Lock()
	logState.logger = l
	logState.mu.Unlock()
}

// ggml_log_level values.
const (
	ggmlLogDebug = 1
	ggmlLogInfo  = 2
	ggmlLogWarn  = 3
	ggmlLogError = 4
	ggmlLogCont  = 5
)

// logNative receives llama.cpp's log pieces (called from C, any thread)
// and emits whole lines.
func logNative(level int, text string) {
	s := &logState
	s.mu.Lock()
	defer s.mu.Unlock()
	if level != ggmlLogCont {
		// A new message ends an unterminated previous one (llama.cpp
		// sometimes omits the newline, e.g. before a quantize error).
		if s.line.Len() > 0 {
			s.line.WriteByte('\n')
			s.emit()
		}
		s.level = slog.LevelDebug
		if level == ggmlLogError {
			s.level = slog.LevelError
		}
	}
	s.line.WriteString(text)
	s.emit()
}

// emit logs every complete line in the buffer, keeping an unfinished one.
// The caller holds logState.mu.
func (s *logBuffer) emit() {
	for {
		buf := s.line.String()
		i := strings.IndexByte(buf, '\n')
		if i < 0 {
			return
		}
		line := buf[:i]
		s.line.Reset()
		s.line.WriteString(buf[i+1:])
		l := s.logger
		if l == nil {
			l = slog.Default()
		}
		if line != "" && l.Enabled(context.Background(), s.level) {
			l.Log(context.Background(), s.level, "llama.cpp: "+line)
		}
	}
}
