package common

import "github.com/kedit/kedit/model/history"

// UndoOverwriteMsg asks for the draft that undoes the overwrite made by
// version Write of History: the lost values put back onto the object as
// it is now (u, on a LOST row of the timeline or in its lost updates).
type UndoOverwriteMsg struct {
	History *history.History
	Write   int
}
