; stack.s -- a recursive sum whose base case misses odd arguments.
;
; Expected verdict: violation `stack' when run with
;     --stack 0x0180-0x01FF
; (thread 0's stack starts at 0x01FF; the program has one thread).
;
;     unsigned char sum_down(unsigned char n) {     /* n + (n-2) + ... */
;         if (n == 0)                       /* BUG: odd n never reaches 0 */
;             return 0;
;         return n + sum_down(n - 2);
;     }
;     void main(void) {
;         result = sum_down(5);             /* 5, 3, 1, 255, 253, ... */
;         __mc_thread_exit();
;     }
;
; Reasoning: n stays odd, so the recursion never ends; each level pushes
; n (1 byte) and a return address (2 bytes), so after about 43 levels the
; stack grows below 0x0180.  The path is straight-line; it has 216
; transitions when the violation is the push that moves SP to 0x017E (SP
; is the next free byte, so SP = 0x017F still means a full but intact
; stack).  (Without --stack the recursion would run down through the
; variables at the bottom of RAM and then push into 0xFFFF, a rom-write.)

        .include "harness.inc"

        STACK_TOP = 0x01FF

        .sect   .bss
result: .skip   1

        .sect   .text
        .globl  _start
_start:
        lds     #STACK_TOP
        ldab    #5
        jsr     sum_down
        stab    result
        jsr     __mc_thread_exit

; unsigned char sum_down(unsigned char n) -- see the header.
sum_down:
        tstb
        beq     sd_zero                 ; n == 0: return 0
        pshb                            ; frame: 0,x = n
        subb    #2
        jsr     sum_down                ; B = sum_down(n - 2)
        tsx
        addb    0,x                     ; B += n
        ins
        rts
sd_zero:
        rts                             ; B = 0

        vector_table _start
