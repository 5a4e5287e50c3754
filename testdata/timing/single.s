; single.s -- one path, for the GNU simulator's count of masked cycles.
;
; No input, no interrupt: the program masks interrupts three times and
; ends with the GNU simulator's emulated exit (bytes 0xCD 0x03, its system
; call 3), an illegal opcode on the hardware: check it with --ignore
; illegal-opcode, under which the path ends there (no trap vector is
; programmed).
;
; Cycles (M68HC11 Reference Manual, appendix A; hc11-opcodes.csv), from
; the end of SEI to the end of CLI:
;
;   first:   ldaa #5 2 + 5 x (deca 2 + bne 3) = 25 + cli 2   = 29
;   second:  nop 2 + nop 2 + cli 2                            =  6
;   third:   ldab #3 2 + 3 x (decb 2 + bne 3) = 15 + mul 10
;            + cli 2                                          = 29
;   --report-timing: max-masked 29; --max-masked 29 verified, 28
;   violated; the GNU simulator's "Longest interrupts masked
;   sequence": 29 cycles (scripts/gnusim-masked.sh compares them).

        .include "harness.inc"

        N1 = 5                          ; the first delay's turns
        N3 = 3                          ; the third's

        .sect   .bss
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        cli
        sei
        ldaa    #N1
d1:
        deca
        bne     d1
        cli
        sei
        nop
        nop
        cli
        sei
        ldab    #N3
d2:
        decb
        bne     d2
        mul
        cli
        .byte   0xCD, 0x03              ; the GNU simulator's exit

        vector_table _start
