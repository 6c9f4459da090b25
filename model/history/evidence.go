package history

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The evidence of each finding: why it counts as what it is, in words
// that name only what the log shows.

func lostEvidence(vs []Version, l Loss, b base) string {
	w, s := &vs[l.OverwrittenBy], &vs[l.LostAt]
	read := fmt.Sprintf("at %s, before the log's first version of it", stamp(l.BaseRead))
	if l.Base >= 0 {
		read = fmt.Sprintf("at %s (resourceVersion %s)", stamp(l.BaseRead), vs[l.Base].ResourceVersion)
	}
	return fmt.Sprintf("%s; %s last read the object %s, before %s set %s at %s (resourceVersion %s)%s",
		sentWithout(vs, w, b), w.Client.User, read, s.Client.User, l.Path, stamp(s.Time), s.ResourceVersion, recreatedSince(vs, l))
}

// sentWithout says that write w carried no resourceVersion its writer
// had read, and what its command read itself.
func sentWithout(vs []Version, w *Version, b base) string {
	who := fmt.Sprintf("%s's %s", w.Client.User, w.Command())
	switch {
	case b.ownRV:
		return fmt.Sprintf("%s carried resourceVersion %s, which it read itself %s before it wrote (its file had none): not what %s's file was made from",
			who, w.requestRV, gap(b.own.to, w.Received), w.Client.User)
	case b.own != nil:
		return fmt.Sprintf("%s carried no resourceVersion; it read the object itself %s before it wrote, which is not what %s saw",
			who, gap(b.own.to, w.Received), w.Client.User)
	}
	return who + " carried no resourceVersion"
}

// gap says how long before a write a read was answered, to the
// millisecond.
func gap(read, write time.Time) string {
	d := write.Sub(read)
	if d < time.Millisecond {
		return "less than 1ms"
	}
	return d.Round(time.Millisecond).String()
}

// revertEvidence says why a revert is one, and why it is not called a
// lost update: its writer may have seen the change it undid.
func revertEvidence(vs []Version, l Loss, b base) string {
	w, s := &vs[l.OverwrittenBy], &vs[l.LostAt]
	read := fmt.Sprintf("its request carried resourceVersion %s, later than that change", w.requestRV)
	switch {
	case tested(vs, l.OverwrittenBy, l.Path):
		read = "its JSON Patch tested the field's value at the moment of the write"
	case (w.requestRV == "" || b.ownRV) && l.Base >= 0:
		read = fmt.Sprintf("%s last read the object at %s (resourceVersion %s), after that change", w.Client.User, stamp(l.BaseRead), vs[l.Base].ResourceVersion)
	case w.requestRV == "" || b.ownRV:
		read = fmt.Sprintf("%s last read the object at %s, after that change", w.Client.User, stamp(l.BaseRead))
	}
	return fmt.Sprintf("%s's %s set %s back to the value it held before %s changed it at %s (resourceVersion %s); not called a lost update, as %s may have read it: %s%s",
		w.Client.User, w.Command(), l.Path, s.Client.User, stamp(s.Time), s.ResourceVersion, w.Client.User, read, recreatedSince(vs, l))
}

// blindEvidence says why a write is blind: no resourceVersion its writer
// had read, and no read of the object by its writer in the log (or only
// reads from before the object was created, or its command's own); and
// whose value it replaced, set back to an older one or not.
func blindEvidence(vs []Version, l Loss, b base) string {
	w, s := &vs[l.OverwrittenBy], &vs[l.LostAt]
	why := fmt.Sprintf("%s and the log has no read of the object by %s before it", sentWithout(vs, w, b), w.Client.User)
	if b.early != nil {
		why = fmt.Sprintf("%s; %s never read %s in this log: the last read by %s was a %s at %s, before it was created",
			sentWithout(vs, w, b), w.Client.User, objectName(vs), w.Client.User, b.early.verb, stamp(b.early.to))
	}
	back := ""
	if reverts(vs, l) {
		back = fmt.Sprintf(", and it set %s back to the value it held before that change", l.Path)
	}
	return fmt.Sprintf("%s; %s had set %s at %s (resourceVersion %s)%s",
		why, s.Client.User, l.Path, stamp(s.Time), s.ResourceVersion, back)
}

// recreatedSince says, when the object was deleted and created again
// between the overwriting write's base and the write, that its writer's
// read was of the deleted object; "" otherwise.
func recreatedSince(vs []Version, l Loss) string {
	if l.Base < 0 {
		return ""
	}
	for k := l.OverwrittenBy; k > l.Base; k-- {
		c := &vs[k]
		if !c.Recreated {
			continue
		}
		del := ""
		if d := &vs[k-1]; d.Deleted {
			del = fmt.Sprintf(" by %s at %s", d.Client.User, stamp(d.Time))
		}
		return fmt.Sprintf("; that read was of the deleted object (uid %s): it was deleted%s and created again (uid %s) by %s at %s (resourceVersion %s)",
			vs[l.Base].UID, del, c.UID, c.Client.User, stamp(c.Time), c.ResourceVersion)
	}
	return ""
}

// objectName names the object as kubectl does, configmap/x, from the
// versions the log holds of it.
func objectName(vs []Version) string {
	for _, v := range vs {
		if v.Object != nil && v.Object.GetKind() != "" {
			return strings.ToLower(v.Object.GetKind()) + "/" + v.Object.GetName()
		}
	}
	return "the object"
}

// lastApplied is the annotation in which a client-side kubectl apply
// (and kubectl edit, once it is there) records the file applied.
var lastApplied = fieldpath.MakePathOrDie("metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration")

// foldLastApplied says a write's change of the last-applied annotation
// as part of its other findings rather than as one of its own: it is
// kubectl's record of the file last applied, which kubectl apply (and
// kubectl edit, once it is there) rewrites whenever it writes; no user's
// change is lost with it. Beside the fields the write replaced, it is
// said in the first one's evidence; alone, it is no finding.
func (h *History) foldLastApplied() {
	other := map[int]*Loss{}
	for _, ls := range []*[]Loss{&h.LostUpdates, &h.BlindWrites, &h.Reverted} {
		for i := range *ls {
			if l := &(*ls)[i]; !l.Path.Equals(lastApplied) && other[l.OverwrittenBy] == nil {
				other[l.OverwrittenBy] = l
			}
		}
	}
	for _, ls := range []*[]Loss{&h.LostUpdates, &h.BlindWrites, &h.Reverted} {
		for _, l := range *ls {
			if o := other[l.OverwrittenBy]; o != nil && l.Path.Equals(lastApplied) {
				o.Evidence += fmt.Sprintf("; it also replaced %s's %s (kubectl apply's record of the file it applied)",
					h.Versions[l.LostAt].Client.User, lastApplied)
			}
		}
	}
	for _, ls := range []*[]Loss{&h.LostUpdates, &h.BlindWrites, &h.Reverted} {
		*ls = slices.DeleteFunc(*ls, func(l Loss) bool { return l.Path.Equals(lastApplied) })
	}
}
