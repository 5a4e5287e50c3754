package loader

// loadBin places a raw binary at base.
func loadBin(name string, data []byte, base uint16, img *Image) error {
	if room := 0x10000 - int(base); len(data) > room {
		return offsetErr(name, int64(room),
			"raw binary of %d bytes loaded at 0x%04X runs past 0xFFFF: the byte at this offset would land at 0x10000; check --base",
			len(data), base)
	}
	img.Segments = []Segment{{Addr: base, Data: append([]byte(nil), data...), Exec: true}}
	return nil
}
