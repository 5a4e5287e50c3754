; sym_keypad_ok.s -- sym_keypad.s fixed: key 2 has its handler.
;
; Expected verdict: verified (--preempt every --input
; 0x1003=0x00,0x01,0x04).
;
;     if (PORTC & 0x04) count2++;

        .include "harness.inc"

        REGS = 0x1000
        PORTC = 0x03                    ; in the register block

        .sect   .bss
stack0: .skip   16
count1: .skip   1
count2: .skip   1

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+16-1
        ldx     #REGS
        brclr   PORTC,x, #0x01, no1       ; key 1 not pressed
        inc     count1
no1:
        brclr   PORTC,x, #0x04, no2       ; key 2 not pressed
        inc     count2
no2:
        ldaa    count1
        adda    count2
        cmpa    #3                      ; at most one press of each
        ldaa    #1                      ; (C is kept)
        blo     fine
        clra
fine:
        jsr     __mc_assert
        jsr     __mc_thread_exit

        vector_table _start
