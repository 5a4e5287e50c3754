; swi_vector.s -- real firmware (no harness stubs, the chip's peripherals
; on).  During bring-up a breakpoint (SWI) was put into the start-up code,
; for the ROM monitor of the development board.  It was left in; the
; production ROM has no monitor, and its vector table is erased (0xFFFF)
; except for reset and the crash vectors -- the illegal-opcode trap, the
; COP and the clock monitor -- which restart the board.  The SWI jumps to
; 0xFFFF, where the CPU fetches the low byte of the reset vector, 0x00:
; TEST, an illegal opcode; the trap restarts the board, which reaches the
; breakpoint again: forever, silently.
;
; Expected verdict: violation `illegal-opcode' (the SWI: its vector is
; not programmed).
;
;     void reset(void) {                        /* also the trap handler */
;         sci_init();
;         asm("swi");                           /* BUG: a breakpoint */
;         for (;;)
;             ;
;     }
;
; Counterexample: the SWI after sci_init.  An SWI whose vector points at
; no handler is an illegal instruction for the firmware, as much as an
; opcode the CPU does not define.  swi_vector_ok.s is the fixed program.

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
        swi                             ; BUG: a breakpoint from bring-up
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
