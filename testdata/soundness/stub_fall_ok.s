; stub_fall_ok.s -- stub_fall.s fixed: the gain table has an entry for
; every mode.
;
; Expected verdict: verified (--preempt every).
;
;     const unsigned char gain[2] = { 0x10, 0x20 };
;
; The rest is stub_fall.s.

        .sect   .bss
stack0: .skip   16

        .sect   .rodata
gain:   .byte   0x10, 0x20

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+16-1
        ldd     #1
        jsr     __mc_nondet             ; B = mode, 0 or 1
        jsr     selftest                ; B is kept
        ldx     #gain
        abx
        ldaa    0,x                     ; A = gain[mode]
        jsr     __mc_assert
        jsr     __mc_thread_exit

        .globl  __mc_nondet
__mc_nondet:
        rts

        .globl  __mc_thread_exit
__mc_thread_exit:
        rts

; void selftest(void) -- keeps B; ends in __mc_assert.
selftest:
        ldaa    #1                      ; the sensor answered
        ; falls through: __mc_assert(A), whose RTS is selftest's

        .globl  __mc_assert
__mc_assert:
        rts

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
