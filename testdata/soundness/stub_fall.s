; stub_fall.s -- a self-test routine saves a JSR/RTS pair the way tight ROM
; code does: it ends by falling through into __mc_assert, whose RTS then
; returns to the routine's caller.  Main keeps a mode it drew in B across
; the call and looks up a gain for it afterwards.
;
; Expected verdict: violation `assert' (--preempt every).
;
;     const unsigned char gain[2] = { 0x10, 0x00 };   /* BUG: mode 1 missing */
;
;     void selftest(void) {
;         __mc_assert(1);                       /* falls into the stub */
;     }
;
;     void main(void) {
;         unsigned char mode = __mc_nondet(1);  /* in B */
;         selftest();
;         __mc_assert(gain[mode] != 0);
;         __mc_thread_exit();
;     }
;
; Counterexample: mode = 1, gain[1] = 0.  B is read after selftest returns
; -- through the stub's RTS, to the JSR in main -- so it is live in
; selftest and between __mc_nondet and the call.  A liveness analysis that
; only knows the stub is entered by calls of it (whose return sites here
; read nothing but A) takes B for dead there, and dead-data elimination
; then merges the states of mode 0 and mode 1 right after __mc_nondet:
; mode 1 is never explored.  stub_fall_ok.s is the fixed program.
;
; The harness stubs are defined here, not by harness.inc, so that selftest
; can sit right in front of __mc_assert.

        .sect   .bss
stack0: .skip   16

        .sect   .rodata
gain:   .byte   0x10, 0x00              ; BUG: no gain for mode 1

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
