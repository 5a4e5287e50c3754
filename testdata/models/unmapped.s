; unmapped.s -- a driver polls a peripheral that this chip does not have.
;
; Expected verdict: violation `unmapped' (any --preempt; one thread).
;
;     #define EXT_STATUS (*(volatile unsigned char *)0x4000)
;
;     unsigned char poll(void) {
;         return EXT_STATUS & 0x01;         /* BUG: nothing at 0x4000 */
;     }
;     void main(void) {
;         ready = poll();
;         __mc_thread_exit();
;     }
;
; Reasoning: in the default MC68HC11E9 expanded-mode map 0x4000 is neither
; RAM (0x0000-0x01FF), I/O (0x1000-0x103F), EEPROM (0xB600-0xB7FF) nor ROM,
; and the image loads nothing there: the LDAB is an `unmapped' access.
; Straight-line path: lds, jsr poll, then the faulting ldab (3 transitions).

        .include "harness.inc"

        EXT_STATUS = 0x4000

        .sect   .bss
ready:  .skip   1
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        jsr     poll
        stab    ready
        jsr     __mc_thread_exit

; unsigned char poll(void) -- see the header.
poll:
        ldab    EXT_STATUS              ; -> unmapped
        andb    #0x01
        rts

        vector_table _start
