; swi_vector_ok.s -- swi_vector.s fixed: the breakpoint is gone.  Real
; firmware (no harness stubs, the chip's peripherals on); the vector table
; is as in swi_vector.s.
;
; Expected verdict: verified.
;
;     void reset(void) {
;         sci_init();
;         for (;;)
;             ;
;     }
;
; The rest is swi_vector.s.

REGS    = 0x1000                        ; register block (INIT's reset value)
BAUD    = 0x2B
SCCR2   = 0x2D
TE      = 0x08

        .sect   .bss
stack:  .skip   32
stack_top = stack + 31

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        jsr     sci_init
idle:   bra     idle

; sci_init: 9600 baud at 8 MHz, transmitter on.
sci_init:
        ldx     #REGS
        ldaa    #0x30
        staa    BAUD,x
        ldaa    #TE
        staa    SCCR2,x
        rts

        .sect   .vectors
        .fill   27, 2, 0xFFFF           ; 0xFFC0-0xFFF5: erased
        .word   0xFFFF                  ; 0xFFF6 SWI: erased
        .word   _start                  ; 0xFFF8 illegal opcode trap
        .word   _start                  ; 0xFFFA COP failure
        .word   _start                  ; 0xFFFC clock monitor failure
        .word   _start                  ; 0xFFFE reset
