package victorialogs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/kedit/kedit/kube/auditlog"
)

// maxRow bounds one event of an answer: VictoriaLogs keeps none over
// 2 MiB, which its JSON escaping may double.
const maxRow = 64 << 20

// EngineError says the engine could not be asked, or answered with an
// error: URL is the engine's without credentials, Words its answer.
type EngineError struct {
	URL    string
	Status string
	Words  string
	Err    error
}

func (e *EngineError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: cannot ask the log engine: %v", e.URL, e.Err)
	}
	return fmt.Sprintf("%s: the log engine answered %s: %s", e.URL, e.Status, e.Words)
}

func (e *EngineError) Unwrap() error { return e.Err }

// limited reports whether the engine refused for its limits: the time a
// query may take, the queries it runs at once.
func (e *EngineError) limited() bool {
	return strings.HasPrefix(e.Status, "503") || strings.HasPrefix(e.Status, "429")
}

// answer is what the engine answered a query.
type answer struct {
	// events counts its events.
	events int
	// cut says why the answer ended early; empty when it did not.
	cut string
	// bytes counts the bytes of its body.
	bytes int64
}

// query sends query to /select/logsql/query within w and hands each event
// of the answer to fn as it comes (each field's value as the engine gives
// it). An answer that ends early says why, after the events before; an
// engine that cannot be reached or answers with an error status is an
// *EngineError.
func (s *Source) query(ctx context.Context, query string, w auditlog.Window, fn func(row map[string]string) error) (*answer, error) {
	form := url.Values{"query": {query}, "allow_partial_response": {"0"}}
	if !w.Since.IsZero() {
		form.Set("start", w.Since.UTC().Format(time.RFC3339Nano))
	}
	switch {
	case !w.Until.IsZero():
		// end is exclusive; --until is not.
		form.Set("end", w.Until.Add(time.Nanosecond).UTC().Format(time.RFC3339Nano))
	case !w.Since.IsZero():
		// Up to now (and a minute of clocks' skew), not to the end of
		// time, which an engine bounding a query's range refuses.
		form.Set("end", time.Now().Add(time.Minute).UTC().Format(time.RFC3339Nano))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.ep.base+"/select/logsql/query", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, &EngineError{URL: s.ep.name, Err: err}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if s.opts.Token != "" {
		req.Header.Set("Authorization", "Bearer "+s.opts.Token)
	}
	if s.ep.account != "" {
		req.Header.Set("AccountID", s.ep.account)
		req.Header.Set("ProjectID", s.ep.project)
	}
	if s.ep.user != nil {
		p, _ := s.ep.user.Password()
		req.SetBasicAuth(s.ep.user.Username(), p)
	}
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		return nil, &EngineError{URL: s.ep.name, Err: unwrapURLError(err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		words, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, &EngineError{URL: s.ep.name, Status: resp.Status, Words: strings.TrimSpace(string(words))}
	}
	body := &counter{r: resp.Body}
	n, cut, err := readRows(body, fn)
	var bad *badAnswer
	if errors.As(err, &bad) {
		return nil, &EngineError{URL: s.ep.name, Err: err}
	}
	if err != nil {
		return nil, err
	}
	return &answer{events: n, cut: cut, bytes: body.n}, nil
}

// badAnswer is a line of an answer that is no event, amid events.
type badAnswer struct{ line []byte }

func (e *badAnswer) Error() string {
	return fmt.Sprintf("the answer holds a line that is no event: %.200s", e.line)
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// readRows reads an answer, JSON lines of one event each, and hands each
// to fn; it returns how many there were. VictoriaLogs stops an answer it
// has begun (its limits reached, a storage node lost) with a blank line
// and its error, then drops the connection: the lines that are no JSON
// are its words.
func readRows(r io.Reader, fn func(row map[string]string) error) (n int, cut string, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var words []string
	for {
		line, rerr := readLine(br)
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0:
		case len(words) == 0 && line[0] == '{':
			row := map[string]string{}
			if json.Unmarshal(line, &row) != nil {
				if rerr == nil {
					return n, "", &badAnswer{line: line}
				}
				// A last line cut short: the connection dropped.
				words = append(words, "the answer stops in the middle of an event")
				break
			}
			n++
			if err := fn(row); err != nil {
				return n, "", err
			}
		default:
			words = append(words, string(line))
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			words = append(words, rerr.Error())
			break
		}
	}
	return n, strings.Join(words, "; "), nil
}

// readLine reads one line of any length up to maxRow.
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		out = append(out, chunk...)
		if err != bufio.ErrBufferFull {
			return out, err
		}
		if len(out) > maxRow {
			return out, fmt.Errorf("an event longer than %d MiB", maxRow>>20)
		}
	}
}

// unwrapURLError drops url.Error's repetition of the request's URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
