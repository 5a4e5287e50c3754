; countdown.s -- run's speed on the chip's peripherals: 300 rounds of a
; 65,535-step DEX/BNE loop (39,323,105 instructions, 117,969,613 E cycles),
; servicing the COP each round, then an illegal opcode that ends the run.
;
;   hc11mc run testdata/perf/countdown.elf                 # the COP off (the E9's CONFIG)
;   hc11mc run testdata/perf/countdown.elf --config 0x0B   # the COP on: the device counts cycles
;
; Both stop with "violation illegal-opcode after 39323105 instructions";
; the GNU simulator runs the same image to the same opcode (docs/performance.md).

        .sect   .text
        .globl  _start
_start:
        ldaa    #0x03           ; OPTION: CR1:CR0 = 3, the COP's longest period
        staa    0x1039          ; (writable in the first 64 cycles only)
        lds     #0x01ff
        ldy     #300
outer:  ldaa    #0x55           ; service the COP
        staa    0x103A
        ldaa    #0xAA
        staa    0x103A
        ldx     #0xffff
inner:  dex
        bne     inner
        dey
        bne     outer
        .byte   0x41            ; an illegal opcode: the end

        .sect   .vectors
        .skip   62
        .word   _start
