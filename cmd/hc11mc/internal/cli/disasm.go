package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/hc11mc/hc11mc/cmd/hc11mc/internal/listing"
)

func newDisasm(stdout io.Writer) *cobra.Command {
	var lf loadFlags
	c := &cobra.Command{
		Use:   "disasm FIRMWARE",
		Short: "list the code of an image in m68hc11-objdump -d syntax",
		Long: `disasm prints every code section of the image as m68hc11-objdump -d does,
with symbols, so that the two listings can be compared with diff. Images
without sections (S-records, Intel HEX, raw binaries) are listed per segment.`,
		Example: "  hc11mc disasm testdata/examples/philosophers.elf\n  hc11mc disasm fw.bin --base 0xE000 --symbols fw.nm",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := refused(cmd.Flags(), disasmIgnores); err != nil {
				return err
			}
			img, err := lf.load(args[0], "", true)
			if err != nil {
				return err
			}
			return listing.Write(stdout, img)
		},
	}
	lf.register(c.Flags())
	hideIgnored(c.Flags(), disasmIgnores)
	return c
}
