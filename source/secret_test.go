package source

import (
	"encoding/base64"
	"strings"
	"testing"
)

// A Secret's values: stringData changed where it sets the key, data
// encoded, a generator's literal plain; the build compared as the server
// stores it (stringData folded into data).
func TestPlanWritesASecretsValuesWhereTheyAreSet(t *testing.T) {
	t.Parallel()
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	dir := writeLayout(t, map[string]string{
		"app/kustomization.yaml": "resources:\n- secret.yaml\nsecretGenerator:\n- name: gen\n  literals:\n  - pass=p1 # the password\n",
		"app/secret.yaml":        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  user: admin # who\ndata:\n  token: " + b64("t1") + " # the token\n",
	})
	for _, c := range []struct {
		name, prefix, key, value, file, line string
	}{
		{"stringData", "creds", "user", "root", "app/secret.yaml", "  user: root # who"},
		{"data", "creds", "token", "t2", "app/secret.yaml", "  token: " + b64("t2") + " # the token"},
		{"a generator's literal", "gen", "pass", "p2", "app/kustomization.yaml", "  - pass=p2 # the password"},
	} {
		ref := findRef(t, dir, "app", "Secret", c.prefix)
		src, err := Find(dir, ref, Hints{})
		if err != nil {
			t.Fatal(err)
		}
		base := live(t, dir, "app", ref)
		mine := base.DeepCopy()
		mine.Object["data"].(map[string]any)[c.key] = b64(c.value)
		e, err := Plan(src, base, mine)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(e.Files) != 1 || e.Files[0].Path != c.file || !strings.Contains(string(e.Files[0].New), c.line+"\n") {
			t.Errorf("%s: %s:\n%s", c.name, paths(e), e.Files[0].New)
		}
	}
}
