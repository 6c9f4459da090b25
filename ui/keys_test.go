package ui

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// TestREADMEListsEveryKey checks the README's key tables against
// DefaultKeyMap: the keys are a contract, and the README is where users
// read it.
func TestREADMEListsEveryKey(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→", "pgdown": "pgdn", " ": "space"}
	km := reflect.ValueOf(DefaultKeyMap())
	for i := 0; i < km.NumField(); i++ {
		b := km.Field(i).Interface().(key.Binding)
		for _, k := range b.Keys() {
			if s, ok := shown[k]; ok {
				k = s
			}
			if !strings.Contains(string(readme), "`"+k+"`") {
				t.Errorf("README does not list `%s` (%s)", k, km.Type().Field(i).Name)
			}
		}
	}
}
