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
}

// readPacket returns the data of the next packet, answering + to a good
// one and - to one whose checksum is wrong (in acknowledgement mode), and
// sending the last packet again when the other side answers -.
func (c *conn) readPacket() ([]byte, error) {
	for {
		b, err := c.r.ReadByte()
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
			b, err := c.r.ReadByte()
			if err != nil {
				return nil, err
			}
			if b == '#' {
				break
			}
			sum += b
			if b == '}' {
				e, err := c.r.ReadByte()
				if err != nil {
					return nil, err
				}
				sum += e
				b = e ^ 0x20
			}
			data = append(data, b)
		}
		var cs [2]byte
		if _, err := io.ReadFull(c.r, cs[:]); err != nil {
			return nil, err
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
		b, err := c.r.ReadByte()
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
