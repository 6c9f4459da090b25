package auditlog

import "io"

// readAhead reads r in a goroutine of its own, a few blocks ahead of the
// reader: a gzip log is then decompressed on one core while the lines
// already decompressed are scanned on another, as `zcat | grep` would.
// stop ends the goroutine when the reader gives up early.
func readAhead(r io.Reader) (rd io.Reader, stop func()) {
	const blocks, blockSize = 4, 1 << 20
	full := make(chan block, blocks)
	free := make(chan []byte, blocks+1)
	done := make(chan struct{})
	for range blocks + 1 {
		free <- make([]byte, blockSize)
	}
	go func() {
		defer close(full)
		for {
			var buf []byte
			select {
			case buf = <-free:
			case <-done:
				return
			}
			// fill, not io.ReadFull: a gzip stream that ends early
			// must say io.ErrUnexpectedEOF, not io.EOF.
			n, err := fill(r, buf)
			select {
			case full <- block{buf[:n], err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	a := &aheadReader{full: full, free: free}
	return a, func() { close(done) }
}

// block is what the read-ahead goroutine read, and how the read ended.
type block struct {
	b   []byte
	err error
}

type aheadReader struct {
	full <-chan block
	free chan<- []byte
	cur  []byte
	back []byte // cur's whole buffer, to give back when read
	err  error
}

func (a *aheadReader) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.err != nil {
			return 0, a.err
		}
		if a.back != nil {
			a.free <- a.back[:cap(a.back)]
			a.back = nil
		}
		blk, ok := <-a.full
		if !ok {
			return 0, io.EOF
		}
		a.cur, a.back, a.err = blk.b, blk.b, blk.err
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}
