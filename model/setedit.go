package model

import (
	"errors"
	"fmt"
)

// SetEdit is one edit of several objects in one text: which members, and
// what each one's item was when the text was made.
type SetEdit struct {
	// Members are the members edited, in the text's order.
	Members []int
	// Apart are the members asked for that the text leaves out, as their
	// texts are in another format than the set's (a Secret stays YAML; a
	// draft keeps the format it was written in): each is edited on its
	// own.
	Apart []int
	// Format is the text's: the set's.
	Format Format
	// Text is the text given to the editor.
	Text string
	// Lines are, for each of Members, the line of Text where its item's
	// first line is (SetItem.Line); none for a refused edit given back.
	Lines []int
	// from is each member's text as the editor was given it
	// (DraftEdited.From); regions its item as rendered.
	from, regions []string
}

// SetFormat makes f the format of the set's edits (-o): the List is
// written in it, and holds the members whose texts are in it.
func (s *Set) SetFormat(f Format) { s.format = f }

// Format returns the format of the set's edits.
func (s *Set) Format() Format {
	if s.format == "" {
		return FormatYAML
	}
	return s.format
}

// Edit makes the text of an edit of members (all when none is given): a
// List, in the set's format, of their drafts, or of base's text where
// there is none. A member whose text is in another format is left out
// (SetEdit.Apart): one List holds one format, and a draft keeps its own.
// An edit the set refused before is given back instead, text and all, so
// that nothing typed is lost. An edit that leaves every member out has no
// Members, and no text.
func (s *Set) Edit(members []int) (*SetEdit, error) {
	if s.edited != nil {
		return s.edited, nil
	}
	if len(members) == 0 {
		for i := range s.members {
			members = append(members, i)
		}
	}
	e := &SetEdit{Format: s.Format()}
	var texts []string
	for _, i := range members {
		sess := s.members[i].sess
		if sess.Format() != e.Format {
			e.Apart = append(e.Apart, i)
			continue
		}
		t, err := sess.DraftText()
		if err != nil {
			return nil, err
		}
		e.Members = append(e.Members, i)
		texts = append(texts, t)
		e.from = append(e.from, t)
		e.regions = append(e.regions, e.Format.itemRegion(t))
	}
	if len(e.Members) > 0 {
		e.Text = e.Format.SetText(texts)
		if items, err := e.Format.SplitSetText(e.Text); err == nil && len(items) == len(e.Members) {
			for _, it := range items {
				e.Lines = append(e.Lines, it.Line)
			}
		}
	}
	return e, nil
}

// Edited reports whether an edit the set refused waits to be opened again.
func (s *Set) Edited() bool { return s.edited != nil }

// SetEditReport says what an edit of several objects changed.
type SetEditReport struct {
	// Edited are the members whose drafts the text changed; Removed those
	// removed from the text, which keep no draft.
	Edited, Removed []int
	// Kept are the members removed from the text whose draft could not be
	// dropped (a save in flight), with why.
	Kept map[int]error
	// Lines are, for each member the text holds, the line of the text
	// where its item's first line is (SetItem.Line).
	Lines map[int]int
}

// AddedError refuses an edited text that names objects that are not among
// those edited: kedit does not create objects.
type AddedError struct {
	// Objects names each one.
	Objects []Identity
}

func (e *AddedError) Error() string {
	names := ""
	for i, id := range e.Objects {
		if i > 0 {
			names += ", "
		}
		names += id.String()
	}
	verb := "is"
	if len(e.Objects) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("%s %s not among the objects edited: kedit does not create objects (kubectl create does); remove %s from the text", names, verb, map[bool]string{true: "them", false: "it"}[len(e.Objects) > 1])
}

// TakeEdit splits text, the editor's result for e, back into one draft per
// object by identity: an item changed becomes its object's draft
// (DraftEdited), an object removed from the text keeps no draft
// (DiscardDraft). A text that cannot be split (*SetTextError) or that names
// an object not edited (*AddedError) changes nothing: every draft is kept,
// and the text is kept for the next Edit. ErrEmptySetText calls the edit
// off.
func (s *Set) TakeEdit(e *SetEdit, text string) ([]SetEffect, SetEditReport, error) {
	var rep SetEditReport
	items, err := e.Format.SplitSetText(text)
	if errors.Is(err, ErrEmptySetText) {
		s.edited = nil
		return nil, rep, err
	}
	if err != nil {
		s.keep(e, text)
		return nil, rep, err
	}
	ids := make([]Identity, len(e.Members))
	for k, i := range e.Members {
		ids[k] = IdentityOf(s.members[i].sess.Base().Object)
	}
	found := make([]int, len(e.Members))
	for k := range found {
		found[k] = -1
	}
	var added []Identity
	for j, it := range items {
		match := -1
		for k, id := range ids {
			if found[k] < 0 && it.Identity.Names(id) {
				match = k
				break
			}
		}
		if match < 0 {
			added = append(added, it.Identity)
			continue
		}
		found[match] = j
	}
	if len(added) > 0 {
		s.keep(e, text)
		return nil, rep, &AddedError{Objects: added}
	}
	s.edited = nil
	var out []SetEffect
	rep.Lines = map[int]int{}
	for k, i := range e.Members {
		if found[k] >= 0 {
			rep.Lines[i] = items[found[k]].Line
		}
		sess := s.members[i].sess
		if found[k] < 0 {
			if sess.Draft() == nil && sess.Rebase() == nil {
				continue
			}
			_, effects, err := sess.Handle(DiscardDraft{})
			if err != nil {
				if rep.Kept == nil {
					rep.Kept = map[int]error{}
				}
				rep.Kept[i] = err
				continue
			}
			rep.Removed = append(rep.Removed, i)
			out = append(out, tag(i, effects)...)
			continue
		}
		it := items[found[k]]
		if it.region == e.regions[k] {
			continue // left as it was
		}
		_, effects, _ := sess.Handle(DraftEdited{Text: it.Text, From: e.from[k]})
		// A text that does not parse is still the draft (DraftError):
		// the row and the object view say why it cannot be saved.
		rep.Edited = append(rep.Edited, i)
		out = append(out, tag(i, effects)...)
	}
	return append(out, s.Pump()...), rep, nil
}

// keep keeps a refused edit's text for the next Edit.
func (s *Set) keep(e *SetEdit, text string) {
	k := *e
	k.Text, k.Lines = text, nil
	s.edited = &k
}

// DropEdited forgets a refused edit's text (the user asked for the
// objects' texts afresh).
func (s *Set) DropEdited() { s.edited = nil }
