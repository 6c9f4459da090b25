package diff

// Merge3Text merges mine and theirs, both derived from base, line by line.
// PLACEHOLDER signature; the text-engine work replaces this body.
func Merge3Text(mine, base, theirs string, opts TextOptions) TextMerge {
	panic("diff.Merge3Text: not implemented yet")
}
