; sci_frame.s -- real firmware, no harness, the exact clock: from `from'
; to `to', the SCI enabled and one byte sent until TC, how long at most?
;
;   hc11mc check sci_frame.elf --clock exact --input 0x100A=0,16 --deadline from:to:N
;
; The firmware sets the fastest rate (BAUD = 0: a bit is 16 E cycles),
; chooses 8 or 9 data bits by the input (PORTE bit 4 into SCCR1's M),
; enables the transmitter, writes a byte to SCDR and polls TC.
;
; The M68HC11 Reference Manual, section 9: a frame is a start bit, eight
; data bits (nine with SCCR1's M) and a stop bit, 10 (11) bits of 16 E
; cycles, F = 160 (176).  When TE goes from 0 to 1 the transmitter
; queues one idle character, a frame of ones, as a preamble (9.3, SCCR2's
; TE); the byte written meanwhile waits in TDR and follows it, and TC,
; set when the transmitter is idle, comes after both: 2F after the
; enable.  A frame starts at the write of SCCR2 or SCDR, the last cycle
; of the store (appendix A's cycle-by-cycle tables), and a read sees
; SCSR as it stands at the start of the instruction (docs/clocks.md).
;
; Cycles (appendix A; hc11-opcodes.csv), from the arrival at `from'
; (t = 0):
;
;   ldaa #TE 2                                   -> 2
;   staa SCCR2,x 4: the preamble from t = 5      -> 6
;   ldaa SCSR,x 4 (TDRE, TC set: the clearing)   -> 10
;   ldaa #'U' 2 + staa SCDR,x 4: into TDR        -> 16
;   brclr SCSR,x #TC 7, from t = 16 + 7k: TC sets at 5 + 2F, so the
;   first turn that sees it starts at 16 + 7k >= 5 + 2F and the loop
;   ends 7 cycles later, at `to':
;
;   M = 0: 2F = 320, k = 45 (16 + 315 = 331 >= 325): to at 338
;   M = 1: 2F = 352, k = 49 (16 + 343 = 359 >= 357): to at 366
;
; Expected: --deadline from:to:366 verified, from:to:365 violated
; (M = 1).  A ten-bit frame with no preamble, started at the first cycle
; of the staa to SCDR, would have TC at 12 + 160 = 172, and say 184.

REGS    = 0x1000                ; the register block after reset
PORTE   = 0x0A
BAUD    = 0x2B
SCCR1   = 0x2C
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
M       = 0x10                  ; SCCR1: nine data bits
TE      = 0x08                  ; SCCR2: transmitter enable
TC      = 0x40                  ; SCSR: transmit complete

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        clr     BAUD,x          ; SCP = 0, SCR = 0: 16 E cycles a bit
        ldab    PORTE,x         ; the input: 0 or M
        andb    #M
        stab    SCCR1,x
        .globl  from
from:   ldaa    #TE
        staa    SCCR2,x         ; TE 0 -> 1: the preamble
        ldaa    SCSR,x          ; TDRE, TC set: the clearing sequence
        ldaa    #'U'
        staa    SCDR,x          ; into TDR, behind the preamble
poll:   brclr   SCSR,x #TC poll
        .globl  to
to:     bra     to

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFC0-0xFFD5 reserved
        .word   0,0,0,0,0,0,0,0,0,0     ; 0xFFD6-0xFFE9 SCI ... TOC1
        .word   0,0,0,0,0,0,0,0,0,0     ; 0xFFEA-0xFFFD
        .word   _start                  ; 0xFFFE reset
