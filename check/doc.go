// Package check is one check of a firmware image, whichever engine runs
// it. Here: the simulated machine a check runs on, built from typed
// settings (Machine: the scheduling points, interrupts, inputs, stacks
// and goals, and the firmware's environment) on a loaded image.
//
// It is not about reading the command line (package internal/cli turns
// the flags into settings), about loading the image (package loader),
// nor about running the engines (packages search and symbolic).
//
// # Settings that name the image
//
// A setting that names something in the image — a symbol, or a
// register of the chip by its name — is kept as the text the user gives
// (Machine.Inputs, Machine.Reach) and read against the image when the
// machine is built; the others are values. Messages name a setting by
// its flag (--input, --reach), the name users know it by.
//
// # The firmware's environment
//
// Machine.Peripherals decides whether the chip's peripherals (package
// devices) are the firmware's environment. By default they are on for
// real firmware — an image that defines no harness stub and is given no
// --irq — and off for harness models, whose register block stays plain
// memory, so that their behaviour does not change. With the peripherals
// on, an --input address inside the register block is the device's (its
// reads follow the register's own rules), others are the machine's; the
// SCI's alphabet and timing, the CONFIG register, the expected output
// and the bounds on received bytes and timer events need them, and are
// refused without them. A bounded exploration (Machine.Bounds) proves
// nothing beyond its bounds.
package check
