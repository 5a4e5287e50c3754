; stack_escape_ok.s -- stack_escape.s fixed: main publishes the address of
; its local, but reads the local only after the helper says it is done.
;
; Expected verdict: verified (--preempt every).
;
;     volatile unsigned char *mailbox;          /* 0: nothing published yet */
;     volatile unsigned char done;
;
;     void helper(void) {                       /* thread 1 */
;         while (mailbox == 0)
;             ;
;         *mailbox = 1;
;         done = 1;
;     }
;
;     void main(void) {
;         volatile unsigned char v = 0;
;         new_thread(helper, stack1, 0);
;         mailbox = &v;
;         while (done == 0)                     /* the helper's store comes first */
;             ;
;         unsigned char a = v;
;         unsigned char b = v;
;         __mc_assert(a == b && a == 1);
;     }

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
mailbox: .skip  2
done:   .skip   1
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
ma_wait:
        ldaa    done
        beq     ma_wait                 ; wait for the helper
        tsx
        ldab    0,x                     ; a = v
        tsx
        ldaa    0,x                     ; b = v
        cba
        bne     ma_bad
        cmpa    #1
        bne     ma_bad
        ldaa    #1                      ; a == b == 1
        bra     ma_assert
ma_bad:
        clra
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
        staa    done                    ; done = 1
        rts

        vector_table _start
