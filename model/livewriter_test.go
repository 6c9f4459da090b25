package model

import "testing"

// TestLiveIsByTheWriterTheTimelineNames: the demo's race. demo-writer set
// foo back to "1" (rv 3), then kedit's conditional patch set it to "2"
// (rv 4) within the same second: both entries carry the same time, and
// demo-writer's comes first. The live version's writer is kedit, as the
// timeline says (kedit's entry is the one that moved since rv 3), never
// demo-writer; and a version whose writer its managedFields cannot tell
// names none.
func TestLiveIsByTheWriterTheTimelineNames(t *testing.T) {
	s := opened(t, cmRef, withManaged(cm("2", "foo", "mine", "bar", "7"),
		mf{"demo-writer", "Update", 3, `{"f:data":{"f:bar":{}}}`}, mf{"kedit", "Update", 4, `{"f:data":{"f:foo":{}}}`}))
	must(t, s, LiveChanged{Type: LiveModified, At: at(6), Object: withManaged(cm("3", "foo", "1", "bar", "7"),
		mf{"demo-writer", "Update", 5, `{"f:data":{"f:bar":{},"f:foo":{}}}`})})
	if live, _ := s.Live(); live.Manager != "demo-writer" {
		t.Errorf("the reset's version: by %q, want demo-writer", live.Manager)
	}
	must(t, s, LiveChanged{Type: LiveModified, At: at(6), Object: withManaged(cm("4", "foo", "2", "bar", "7"),
		mf{"demo-writer", "Update", 5, `{"f:data":{"f:bar":{}}}`}, mf{"kedit", "Update", 5, `{"f:data":{"f:foo":{}}}`})})
	live, _ := s.Live()
	entries := s.Timeline()
	if live.Manager != "kedit" || entries[len(entries)-1].Manager != live.Manager {
		t.Errorf("the race's version: live by %q, the timeline says %q; want kedit", live.Manager, entries[len(entries)-1].Manager)
	}

	// Opened on the race's version, with no version before it: the two
	// entries of the same second cannot be told apart.
	s = opened(t, cmRef, withManaged(cm("4", "foo", "2", "bar", "7"),
		mf{"demo-writer", "Update", 5, `{"f:data":{"f:bar":{}}}`}, mf{"kedit", "Update", 5, `{"f:data":{"f:foo":{}}}`}))
	if live, _ := s.Live(); live.Manager != "" {
		t.Errorf("opened on a version two managers of one second may have written: by %q, want none named", live.Manager)
	}
}
