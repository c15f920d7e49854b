package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestPrepareArgs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// lm-eval's nargs="+" flags
		{"lmeval run --tasks a b,c --model dummy", "lmeval run --tasks=a --tasks=b,c --model dummy"},
		{"lmeval run -t a b -a k=v k2=v2 -f 5", "lmeval run --t=a --t=b --a=k=v --a=k2=v2 -f 5"},
		{"lmeval run --model_args=pretrained=x,n_ctx=5", "lmeval run --model_args=pretrained=x,n_ctx=5"},
		// nargs="?" flags
		{"lmeval run --apply_chat_template --tasks x", "lmeval run --apply_chat_template=true --tasks=x"},
		{"lmeval run --apply_chat_template chatml", "lmeval run --apply_chat_template=chatml"},
		{"lmeval run --cache_requests", "lmeval run --cache_requests=true"},
		{"lmeval run --cache_requests refresh -t x", "lmeval run --cache_requests=refresh --t=x"},
		{"lmeval run --fewshot_as_multiturn false", "lmeval run --fewshot_as_multiturn=false"},
		// the legacy form means run
		{"lmeval --model dummy --tasks a b", "lmeval run --model dummy --tasks=a --tasks=b"},
		{"lmeval -M dummy -t a", "lmeval run -M dummy --t=a"},
		// other commands and help are left alone
		{"lmeval --help", "lmeval --help"},
		{"lmeval ls tasks", "lmeval ls tasks"},
		{"lmeval validate --tasks a b", "lmeval validate --tasks=a --tasks=b"},
		{"lmeval inspect --json m.gguf", "lmeval inspect --json m.gguf"},
		// flags after positional arguments
		{"lmeval inspect m.gguf --json --kv", "lmeval inspect --json --kv m.gguf"},
		{"lmeval ls tags --include_path d1 --include_path=d2", "lmeval ls --include_path d1 --include_path=d2 tags"},
		{"lmeval cache info c.db --json", "lmeval cache info --json c.db"},
		{"lmeval run --tasks", "lmeval run --tasks"},
		{"lmeval run -- --tasks a", "lmeval run -- --tasks a"},
	} {
		got := strings.Join(prepareArgs(strings.Fields(tc.in)), " ")
		if got != tc.want {
			t.Errorf("prepareArgs(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	if got := prepareArgs([]string{"lmeval"}); !reflect.DeepEqual(got, []string{"lmeval"}) {
		t.Errorf("prepareArgs(lmeval) = %q", got)
	}
}
