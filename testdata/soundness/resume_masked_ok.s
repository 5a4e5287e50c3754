; resume_masked_ok.s -- firmware reads its write-protect flag from an
; address an equate gives it, which lies inside the stack: the byte a
; routine saved there and pulled again.  Checked with the chip's
; peripherals on (--peripherals on), as firmware on the real chip.
;
; Expected verdict: verified (--preempt every --peripherals on), also
; when the search is cut and resumed.  The fixed resume_masked.s: the
; flag is a variable of its own.
;
;     unsigned char wprot;                      /* FIX: a variable */
;
;     void setup(unsigned char sw) {            /* sw saved on the stack */
;         /* ... */
;     }
;
;     void main(void) {                         /* SP = 0x01FF */
;         setup(nondet(1));                     /* a DIP switch: 0 or 1 */
;         for (unsigned char n = 40; n; n--)    /* start-up delay */
;             ;
;         if (wprot)
;             *(unsigned char *)0xE000 = 0;     /* into ROM */
;         for (;;)
;             ;
;     }
;
; The states of the two switch settings after setup are still one
; state, and nothing reads the byte that tells them apart.

        .include "harness.inc"

        STACK_TOP = 0x01FF
        ROM_LOG   = 0xE000

        .sect   .bss
wprot:  .skip   1                       ; FIX: a variable

        .sect   .text
        .globl  _start
_start:
        lds     #STACK_TOP
        ldd     #1
        jsr     __mc_nondet             ; B = the switch
        jsr     setup
        ldaa    #40
delay:
        deca
        bne     delay
        ldab    wprot
        beq     idle
        staa    ROM_LOG                 ; a write into ROM
idle:
        bra     idle

; void setup(unsigned char sw) -- sw in B, saved on the stack.
setup:
        pshb
        nop                             ; ...
        pulb
        clrb
        rts

        vector_table _start
