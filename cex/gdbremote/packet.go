package gdbremote

// Packets of the remote serial protocol (GDB's manual, "Remote Protocol",
// "Overview"): $data#cc, cc the sum of data's bytes modulo 256 in two hex
// digits; the receiver answers + (received) or - (send again) until both
// sides agree to QStartNoAckMode. In data, '}' escapes the next byte
// (xored with 0x20); '$', '#', '}' and '*' are sent escaped.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// errInterrupt is what readPacket returns for GDB's interrupt byte
// (0x03) outside a packet.
var errInterrupt = errors.New("interrupt")

// conn reads and writes packets on one connection.
type conn struct {
	r     *bufio.Reader
	w     io.Writer
	noAck bool   // after QStartNoAckMode: no + or - either way
	last  []byte // the last packet sent, for a -
	// ahead is a read of r in flight, started by interrupted while the
	// target runs; every read waits for it first, so that only one
	// goroutine reads r at a time.
	ahead chan readResult
	// kept is a byte (or an error) read ahead that was not the
	// interrupt: the next read returns it.
	kept *readResult
}

// readResult is one byte read, or the error that ended the reading.
type readResult struct {
	b   byte
	err error
}

// readByte reads the next byte of the connection.
func (c *conn) readByte() (byte, error) {
	if c.ahead != nil {
		r := <-c.ahead
		c.ahead = nil
		return r.b, r.err
	}
	if k := c.kept; k != nil {
		c.kept = nil
		return k.b, k.err
	}
	return c.r.ReadByte()
}

// interrupted reports, without waiting, whether GDB sent its interrupt
// (0x03) while the target runs, or the connection ended (the run stops
// then too; the next read returns the error). In all-stop mode GDB sends
// nothing else while the target runs; another byte is kept for the next
// read, and later calls report false.
func (c *conn) interrupted() bool {
	if c.kept != nil {
		return false
	}
	if c.ahead == nil {
		ch := make(chan readResult, 1)
		c.ahead = ch
		r := c.r
		go func() {
			b, err := r.ReadByte()
			ch <- readResult{b, err}
		}()
	}
	select {
	case r := <-c.ahead:
		c.ahead = nil
		if r.err == nil && r.b == 0x03 {
			return true
		}
		c.kept = &r
		return r.err != nil
	default:
		return false
	}
}

// readPacket returns the data of the next packet, answering + to a good
// one and - to one whose checksum is wrong (in acknowledgement mode), and
// sending the last packet again when the other side answers -.
func (c *conn) readPacket() ([]byte, error) {
	for {
		b, err := c.readByte()
		if err != nil {
			return nil, err
		}
		switch b {
		case '+':
			continue
		case '-':
			if c.last != nil {
				if _, err := c.w.Write(c.last); err != nil {
					return nil, err
				}
			}
			continue
		case 0x03:
			return nil, errInterrupt
		case '$':
		default:
			continue // noise between packets
		}
		var data []byte
		var sum byte
		for {
			b, err := c.readByte()
			if err != nil {
				return nil, err
			}
			if b == '#' {
				break
			}
			sum += b
			if b == '}' {
				e, err := c.readByte()
				if err != nil {
					return nil, err
				}
				sum += e
				b = e ^ 0x20
			}
			data = append(data, b)
		}
		var cs [2]byte
		for i := range cs {
			if cs[i], err = c.readByte(); err != nil {
				return nil, err
			}
		}
		want, ok := hexByte(cs[0], cs[1])
		if c.noAck {
			return data, nil
		}
		if !ok || want != sum {
			if _, err := c.w.Write([]byte{'-'}); err != nil {
				return nil, err
			}
			continue
		}
		if _, err := c.w.Write([]byte{'+'}); err != nil {
			return nil, err
		}
		return data, nil
	}
}

// writePacket sends data as one packet, escaping what must be.
func (c *conn) writePacket(data string) error {
	buf := make([]byte, 0, len(data)+8)
	buf = append(buf, '$')
	var sum byte
	for i := 0; i < len(data); i++ {
		b := data[i]
		switch b {
		case '$', '#', '}', '*':
			buf = append(buf, '}')
			sum += '}'
			b ^= 0x20
		}
		buf = append(buf, b)
		sum += b
	}
	buf = append(buf, fmt.Sprintf("#%02x", sum)...)
	c.last = buf
	if _, err := c.w.Write(buf); err != nil {
		return err
	}
	return c.awaitAck()
}

// awaitAck waits, in acknowledgement mode, for the + that answers the
// packet just sent, sending it again for each -.
func (c *conn) awaitAck() error {
	for !c.noAck {
		b, err := c.readByte()
		if err != nil {
			return err
		}
		switch b {
		case '+':
			return nil
		case '-':
			if _, err := c.w.Write(c.last); err != nil {
				return err
			}
		}
	}
	return nil
}

// hexByte reads two hex digits.
func hexByte(h, l byte) (byte, bool) {
	a, ok1 := hexDigit(h)
	b, ok2 := hexDigit(l)
	return a<<4 | b, ok1 && ok2
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
