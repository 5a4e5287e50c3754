; oc1_withdraw.s -- real firmware, no harness: a request of OC1 that the
; firmware withdraws, under the exact clock.
;
;   hc11mc check oc1_withdraw.elf --clock exact --input 0x100A=0,1,2,3 --latency toc1:N
;
; The CPU comes out of reset with I set.  The firmware arms OC1 and sets
; TOC1 to K = 16 counts after the TCNT it reads (E/1: one count per E
; cycle); the LDD reads TCNT's high byte in its fourth cycle, 4 counts
; on from T0, the count of the cycle before it (see oc1_exact.s), so
; that OC1F sets at t = 4 + K = 20, inside the first BRCLR, which reads
; TFLG1 as it stood when it began and loops once more.  Still masked,
; it polls OC1F, waits 1 + n turns (n = PORTE & 3, the
; input) and clears OC1F: the request is withdrawn before the interrupt
; could be taken, and ends without its handler.  Its interval counts
; every cycle from the flag to the end of the instruction that clears it
; (the write is at one of its cycles; counting them all keeps the count
; an upper bound).  Then I is cleared; OC1 comes again 65 536 cycles
; later, while the CPU waits in WAI, and is taken at once: 14 cycles.
;
; Cycles (M68HC11 Reference Manual, appendix A; hc11-opcodes.csv), from
; the first cycle of `ldd TCNT,x' (t = 0):
;
;   ldd idx 5 + addd imm 4 + std idx 5 + nop 2   -> 16
;   brclr idx 7 (OC1F clear at its start: loops) -> 23  OC1F sets at 20
;   brclr idx 7 (OC1F seen set: falls through)   -> 30
;   ldab idx 4 + andb imm 2 + incb 2             -> 38
;   (1 + n) x (decb 2 + bne 3)                   -> 43 + 5n
;   ldaa imm 2 + staa idx 4 (OC1F cleared)       -> 49 + 5n
;
; the withdrawn request waited 49 + 5n - 20 = 29 + 5n cycles:
;
;   n = 0: 29   n = 1: 34   n = 2: 39   n = 3: 44
;
; Expected: --latency toc1:44 verified (the later requests take 14),
; toc1:43 violated (n = 3: the request stood more than 43 cycles and its
; handler had not begun).

REGS    = 0x1000                ; the register block after reset
PORTE   = 0x0A
TCNT    = 0x0E
TOC1    = 0x16
TMSK1   = 0x22
TFLG1   = 0x23
OC1F    = 0x80                  ; TFLG1 / TMSK1: OC1F / OC1I
K       = 16                    ; TOC1 = TCNT + K

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        ldaa    #OC1F
        staa    TFLG1,x         ; OC1F cleared
        staa    TMSK1,x         ; OC1I: OC1 armed
        .globl  arm
arm:    ldd     TCNT,x          ; T0
        addd    #K
        std     TOC1,x          ; OC1F sets when TCNT comes to T0 + K
        nop
poll:   brclr   TFLG1,x,#OC1F,poll
        ldab    PORTE,x         ; the input
        andb    #3
        incb                    ; 1 + n turns
delay:  decb
        bne     delay
        ldaa    #OC1F
        .globl  withdraw
withdraw:
        staa    TFLG1,x         ; OC1F cleared: the request withdrawn
        cli
loop:   wai
        bra     loop

        .globl  oc1_isr
oc1_isr:
        ldaa    #OC1F
        staa    TFLG1,x         ; OC1F cleared
        rti

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFC0-0xFFD5 reserved
        .word   0                       ; 0xFFD6 SCI
        .word   0,0,0,0,0,0,0,0         ; 0xFFD8-0xFFE7 SPI ... OC2
        .word   oc1_isr                 ; 0xFFE8 OC1
        .word   0,0,0,0,0,0,0,0,0,0     ; 0xFFEA-0xFFFD
        .word   _start                  ; 0xFFFE reset
