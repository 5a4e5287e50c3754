; stack_escape.s -- main publishes the address of a local on its own stack;
; a helper thread writes through it while main reads the local twice,
; stack-relative (tsx; ldaa 0,x).
;
; Expected verdict: violation `assert' (--preempt every).
;
;     volatile unsigned char *mailbox;          /* 0: nothing published yet */
;
;     void helper(void) {                       /* thread 1 */
;         while (mailbox == 0)
;             ;
;         *mailbox = 1;                         /* a store into main's frame */
;     }
;
;     void main(void) {
;         volatile unsigned char v = 0;         /* a local: 0,x after tsx */
;         new_thread(helper, stack1, 0);
;         mailbox = &v;                         /* BUG: the local escapes */
;         unsigned char a = v;
;         unsigned char b = v;
;         __mc_assert(a == b);                  /* "no one else sees my locals" */
;     }
;
; Counterexample: main publishes &v and reads a = 0; the helper, which
; saw the mailbox, stores 1 into v; main reads b = 1 and the assertion
; fails.  Between publishing and the assertion main touches only its own
; stack, so a scheduler that switched threads only at accesses outside a
; thread's own stack never ran the helper's store between the two reads
; and reported `verified'.  stack_escape_ok.s is the fixed program.

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
mailbox: .skip  2
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        jsr     main
        jsr     __mc_thread_exit

; void main(void) -- see the header.
main:
        clra
        psha                            ; v = 0: a frame of one byte
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #helper
        jsr     __mc_thread_create
        tsx                             ; X = &v
        stx     mailbox                 ; mailbox = &v
        tsx
        ldab    0,x                     ; a = v
        tsx
        ldaa    0,x                     ; b = v: the helper may have stored in between
        cba
        beq     ma_same
        clra                            ; a != b
        bra     ma_assert
ma_same:
        ldaa    #1
ma_assert:
        jsr     __mc_assert
        ins
        rts

; void helper(void) -- see the header.
helper:
        ldx     mailbox
        beq     helper                  ; wait for the address
        ldaa    #1
        staa    0,x                     ; *mailbox = 1
        rts

        vector_table _start
