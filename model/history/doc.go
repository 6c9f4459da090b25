// Package history rebuilds one object's history from the events of an API
// server's audit log, and names what was lost in it.
//
// A write recorded at RequestResponse level carries the object the server
// stored; a read recorded at Metadata level says who read the object and
// when. From both, Analyze lists the object's versions with what each
// changed, and finds:
//
//   - lost updates: a change one client made that a later write by another
//     client replaced without having seen it. A client is the effective user
//     (the impersonated one when there is one) with its user agent. A write's
//     base is the resourceVersion its request carried, else the version of
//     the object when its client last read it (get, list, or a watch open
//     then). Every field another client set between that base and the write,
//     and that the write gave another value, was lost by it.
//   - blind writes: writes with no base at all (no resourceVersion, no read
//     by their client) that replaced a value another client had set. What
//     their writer saw is unknown, so they are not called lost updates.
//   - reverted values: a write that set a field back to the value it held
//     before another client's change, when that change is not lost by it
//     (its writer read the object after the change, or its read is not in
//     the log): the writer may have seen it, but undid it.
//   - fights: a field whose value changes hands between the same two
//     clients at least three times.
//
// A JSON Patch's test operation is a read of the field it tests at the
// moment of the write: for that field, the write's base is the version
// before it, and it neither loses, replaces blind, reverts nor takes in
// a fight what it tested.
//
// The package does no I/O: kube/auditlog reads the log into Events.
package history
