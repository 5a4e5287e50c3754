; sym_adpull_ok.s -- sym_adpull.s fixed: a saturated channel 4 is
; clipped to 0xFE before it is used.
;
; Expected verdict: verified (the flags of sym_adpull.s).
;
;     if ((x & 0xFF) == 0xFF) x--;

        .include "harness.inc"

        ADR1 = 0x1031

        .sect   .bss
stack0: .skip   16
savesp: .skip   2
chans:  .skip   4

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+16-1
        sts     savesp
        lds     #ADR1-1                 ; the next pull reads ADR1
        pula                            ; ADR1
        pulb                            ; ADR2
        pulx                            ; ADR3:ADR4
        lds     savesp
        std     chans
        stx     chans+2
        ldaa    chans+3                 ; channel 4
        cmpa    #0xFF
        bne     clip
        deca                            ; saturated: clipped
clip:
        inca
        jsr     __mc_assert
        jsr     __mc_thread_exit

        vector_table _start
