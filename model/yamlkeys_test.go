package model

import (
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestBooleanKeysAreRefused: a plain key that YAML 1.1 (the decoder behind
// kubectl's and kedit's YAML) reads as a boolean would be stored as "true"
// or "false", and two of them in one map would keep only the last: the
// draft is refused naming the key and its line, and says how to keep it.
// Quoted, tagged, true and false themselves, and such words as values are
// taken as they are.
func TestBooleanKeysAreRefused(t *testing.T) {
	head := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n"
	for _, key := range []string{"y", "Y", "yes", "on", "ON", "True", "n", "no", "off", "FALSE"} {
		_, err := parseDraft(head + "  a: b\n  " + key + ": added\n")
		var de *DraftError
		if !errors.As(err, &de) || de.Line != 7 || de.Field != ".data."+key || !strings.Contains(de.Msg, "write it quoted (\""+key+"\")") {
			t.Errorf("%s: %v, want a DraftError on line 7 for .data.%s", key, err, key)
		}
	}
	for _, body := range []string{"  \"y\": added\n", "  'on': added\n", "  !!str off: added\n", "  true: added\n", "  false: added\n",
		"  yes2: added\n", "  flag: \"yes\"\n"} {
		obj, err := parseDraft(head + body)
		if err != nil {
			t.Errorf("%q refused: %v", body, err)
			continue
		}
		if data, _, _ := unstructured.NestedStringMap(obj.Object, "data"); len(data) != 1 {
			t.Errorf("%q: data %v", body, data)
		}
	}
	// A key in a block string is text, not a key.
	if _, err := parseDraft(head + "  workflow.yaml: |\n    on: push\n"); err != nil {
		t.Errorf("a key in a block string refused: %v", err)
	}
}

// TestRenderedBooleanKeysParseBack: every key kedit renders (from the
// server's JSON, where it is a string) parses back to itself, so a draft
// left as it is never meets the refusal above.
func TestRenderedBooleanKeysParseBack(t *testing.T) {
	data := map[string]any{}
	for k := range yaml11Bools {
		data[k] = "v-" + k
	}
	data["true"], data["false"] = "t", "f"
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "x"}, "data": data}}
	text, err := RenderYAML(obj)
	if err != nil {
		t.Fatal(err)
	}
	back, err := parseDraft(text)
	if err != nil {
		t.Fatalf("kedit's own text refused: %v\n%s", err, text)
	}
	got, _, _ := unstructured.NestedMap(back.Object, "data")
	if len(got) != len(data) {
		t.Errorf("parsed back %d keys, want %d:\n%s", len(got), len(data), text)
	}
	for k, v := range data {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
}
