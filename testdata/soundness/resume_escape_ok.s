; resume_escape_ok.s -- main calls a routine that hands a helper the address
; of its local, and reads the local twice; the helper waits for the
; address, then spins a while before it writes through it.  The program
; of stack_escape.s, with a helper that takes its time, so that a search
; cut by --max-states has seen main's reads before the cut and sees the
; helper's store after it.
;
; Expected verdict: verified (--preempt every), also when the search is
; cut and resumed.  The fixed resume_escape.s: f reads its local once.
;
;     volatile unsigned char *mailbox;          /* 0: nothing published */
;     volatile unsigned char spin = 24;
;
;     void helper(void) {                       /* thread 1 */
;         while (mailbox == 0)
;             ;
;         while (--spin)                        /* takes its time */
;             ;
;         *mailbox = 1;                         /* into f's frame */
;     }
;
;     unsigned char f(void) {
;         volatile unsigned char v = 0;
;         mailbox = &v;                         /* BUG: the local escapes */
;         unsigned char a = v;
;         unsigned char b = a;                  /* FIX: one read */
;         return a == b;
;     }
;
;     void main(void) {
;         new_thread(helper, stack1 + 31, 0);
;         __mc_assert(f());
;     }
;
; The helper's store still intrudes into main's stack after f's read
; relied on it, before a cut or after it: the search starts again, from
; the initial state when it was resumed.

        .include "harness.inc"

        STACK_SIZE = 32
        SPINS      = 24

        .sect   .bss
mailbox: .skip  2
spin:   .skip   1
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldaa    #SPINS
        staa    spin
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #helper
        jsr     __mc_thread_create
        jsr     f
        jsr     __mc_assert
        jsr     __mc_thread_exit

; unsigned char f(void) -- see the header; the result in A.
f:
        clra
        psha                            ; v = 0
        tsx
        stx     mailbox                 ; BUG: mailbox = &v
        ldaa    0,x                     ; a = v
        tab                             ; FIX: b = a
        ins
        cba
        bne     f_differ
        ldaa    #1
        rts
f_differ:
        clra                            ; v changed between the reads
        rts

; void helper(void) -- see the header.
helper:
        ldx     mailbox
        beq     helper
he_spin:
        dec     spin
        bne     he_spin
        ldaa    #1
        staa    0,x                     ; *mailbox = 1
        jsr     __mc_thread_exit

        vector_table _start
