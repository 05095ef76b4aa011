package flow

import "testing"

func TestNormModule(t *testing.T) {
	for in, want := range map[string]string{
		"node:crypto":        "crypto",
		"stripe":             "stripe",
		"npm:stripe@14.21.0": "stripe",
		"https://esm.sh/stripe@14.21.0?target=deno":    "stripe",
		"https://esm.sh/@supabase/supabase-js@2":       "@supabase/supabase-js",
		"https://esm.sh/@scope/pkg@1.2.3/sub/path":     "@scope/pkg/sub/path",
		"https://cdn.jsdelivr.net/npm/uuid@9/+esm":     "uuid/+esm",
		"https://deno.land/std@0.168.0/http/server.ts": "https://deno.land/std@0.168.0/http/server.ts",
	} {
		if got := normModule(in); got != want {
			t.Errorf("normModule(%q) = %q, want %q", in, got, want)
		}
	}
}
