; reach.s -- a goal location that only some inputs lead to.
;
; Expected verdict: with --reach goal, the goal is found (reported as a
; `reach' result; any --preempt, one thread).  Without --reach: verified.
;
;     unsigned char combine(unsigned char a, unsigned char b) {
;         return a + b;
;     }
;     void goal(void) { }                   /* the location to reach */
;     void main(void) {
;         unsigned char a = __mc_nondet(3);
;         unsigned char b = __mc_nondet(3);
;         if (combine(a, b) == 5)           /* only (2,3) and (3,2) */
;             goal();
;         __mc_thread_exit();
;     }
;
; Reasoning: two of the sixteen input pairs give a + b == 5 and call goal;
; the shortest path reaches goal's address after 19 transitions.

        .include "harness.inc"

        .sect   .bss
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldd     #3
        jsr     __mc_nondet
        pshb                            ; frame: a
        ldd     #3
        jsr     __mc_nondet
        pshb                            ; frame: b (0,x), a (1,x)
        tsx
        ldab    1,x                     ; first argument: a (in B)
        jsr     combine                 ; second argument: b, on the stack
        pulx                            ; drop a and b
        cmpb    #5
        bne     done
        jsr     goal
done:
        jsr     __mc_thread_exit

; unsigned char combine(unsigned char a, unsigned char b)
combine:
        tsx
        addb    2,x                     ; b, above the return address
        rts

; void goal(void) -- see the header.
        .globl  goal
goal:
        rts

        vector_table _start
