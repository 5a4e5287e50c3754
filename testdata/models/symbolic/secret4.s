; secret4.s -- four nondeterministic input bytes; the assertion fails for
; exactly one combination of them.
;
; Expected verdict: violation `assert' with --engine hmc or auto, the
; input being c3 5a e7 96.  The explicit engine branches 256 ways on each
; byte (2^32 inputs) and ends incomplete; the model is not in manifest.json.
;
;     unsigned char key[4];
;     const unsigned char secret[4] = { 0xd4, 0x6b, 0xf8, 0xa7 };
;     void main(void) {
;         for (i = 0; i < 4; i++)
;             key[i] = __mc_nondet(255);      /* an unlock code, keyed in */
;         for (i = 0; i < 4; i++)
;             if ((unsigned char)(key[i] + 0x11) != secret[i])
;                 break;
;         __mc_assert(i < 4);                 /* the code is never accepted */
;         __mc_thread_exit();
;     }
;
; Reasoning: the comparison loop leaves early at the first byte that
; differs; only key[i] = secret[i] - 0x11 for all four bytes runs it to
; the end, where A = 0 fails the assertion.

        .include "harness.inc"

        .sect   .bss
key:    .skip   4
stack0: .skip   32

        .sect   .rodata
secret: .byte   0xd4, 0x6b, 0xf8, 0xa7

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldx     #key
read:
        ldd     #255
        pshx
        jsr     __mc_nondet             ; B = a byte of the code
        pulx
        stab    0,x
        inx
        cpx     #key+4
        bne     read
        ldx     #key
        ldy     #secret
compare:
        ldaa    0,x
        adda    #0x11
        cmpa    0,y
        bne     differ                  ; a wrong byte: rejected
        inx
        iny
        cpx     #key+4
        bne     compare
        clra                            ; accepted: A = 0
        bra     check
differ:
        ldaa    #1
check:
        jsr     __mc_assert
        jsr     __mc_thread_exit

        vector_table _start
