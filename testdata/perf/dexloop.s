; dexloop.s -- the simulator's speed benchmark: a DEX/BNE loop forever.
;
;   hc11mc run testdata/perf/dexloop.elf --peripherals off --steps 1000000000
;
; runs a billion instructions; divide by the wall time for instructions/s.
; (With the chip's peripherals, run stops when the loop comes round: it
; reads nothing and enables no interrupt, so nothing can end it.)
        .sect   .text
        .globl  _start
_start:
        lds     #0x01ff
outer:  ldx     #0xffff
inner:  dex
        bne     inner
        bra     outer

        .sect   .vectors
        .skip   62
        .word   _start
