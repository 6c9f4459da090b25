package ui

import (
	"github.com/kedit/kedit/ui/browser"
	"github.com/kedit/kedit/ui/common"
	"github.com/kedit/kedit/ui/conflict"
	"github.com/kedit/kedit/ui/editor"
	"github.com/kedit/kedit/ui/fielddoc"
	"github.com/kedit/kedit/ui/helppage"
	"github.com/kedit/kedit/ui/object"
	"github.com/kedit/kedit/ui/objectset"
	"github.com/kedit/kedit/ui/preview"
	"github.com/kedit/kedit/ui/requests"
	"github.com/kedit/kedit/ui/sourcediff"
	"github.com/kedit/kedit/ui/timeline"
	"github.com/kedit/kedit/ui/tour"
)

// KeyMap is every key kedit answers to: each view's own key map. The keys
// are a contract (the README's key tables and the end-to-end tests use
// them), so change a default only together with both.
//
// A key means what the active view says it means: t is the timeline in the
// object view and take theirs in the conflict view. Each view answers its
// own keys, ctrl+c and ? included (f1 in the in-app editor, where ? is
// typed), and its help is drawn from the same bindings.
type KeyMap struct {
	Object   object.KeyMap
	Conflict conflict.KeyMap
	Editor   editor.KeyMap
	Timeline timeline.KeyMap
	Lost     conflict.LostKeyMap
	Preview  preview.KeyMap
	Docs     fielddoc.KeyMap
	Source   sourcediff.KeyMap
	Browser  browser.KeyMap
	Set      objectset.KeyMap
	HelpPage helppage.KeyMap
	Prompt   common.PromptKeyMap
	Requests requests.KeyMap
	// Tour is kedit demo --tour's line (none: its steps move on by the
	// session's state).
	Tour tour.KeyMap
}

// DefaultKeyMap returns kedit's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Object:   object.DefaultKeyMap(),
		Conflict: conflict.DefaultKeyMap(),
		Editor:   editor.DefaultKeyMap(),
		Timeline: timeline.DefaultKeyMap(),
		Lost:     conflict.DefaultLostKeyMap(),
		Preview:  preview.DefaultKeyMap(),
		Docs:     fielddoc.DefaultKeyMap(),
		Source:   sourcediff.DefaultKeyMap(),
		Browser:  browser.DefaultKeyMap(),
		Set:      objectset.DefaultKeyMap(),
		HelpPage: helppage.DefaultKeyMap(),
		Prompt:   common.DefaultPromptKeyMap(),
		Requests: requests.DefaultKeyMap(),
		Tour:     tour.DefaultKeyMap(),
	}
}
