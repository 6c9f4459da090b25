package ui

import "github.com/kedit/kedit/ui/common"

// The app's names for the draft marks the views share (common.DraftKey,
// common.DraftPlace): the shelf, the set and the opening of objects file
// drafts by them.
type (
	// DraftKey names an object that has a draft (common.DraftKey).
	DraftKey = common.DraftKey
	// DraftPlace says where a draft is kept (common.DraftPlace).
	DraftPlace = common.DraftPlace
)

// Where a draft is kept (common.DraftStored, common.DraftInMemory).
const (
	DraftStored   = common.DraftStored
	DraftInMemory = common.DraftInMemory
)
