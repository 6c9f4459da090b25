package diff

import "fmt"

// Side says which version a change came from.
type Side int

// The sides a change can come from.
const (
	// SideMine is the user's draft.
	SideMine Side = iota + 1
	// SideTheirs is the server's version.
	SideTheirs
	// SideBoth means mine and theirs made the same change, or changes that
	// merged line by line into one value.
	SideBoth
)

// String returns "mine", "theirs" or "both".
func (s Side) String() string {
	switch s {
	case SideMine:
		return "mine"
	case SideTheirs:
		return "theirs"
	case SideBoth:
		return "both"
	}
	return fmt.Sprintf("Side(%d)", int(s))
}
