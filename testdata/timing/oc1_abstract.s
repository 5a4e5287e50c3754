; oc1_abstract.s -- real firmware, no harness: whenever OC1 fires, how
; late can its handler begin?  Under the abstract clock (the default).
;
;   hc11mc check oc1_abstract.elf --input 0x100A=0,1,2,3 --latency toc1:N
;
; The firmware arms OC1 (OC1F cleared, OC1I set), clears I and loops:
; it reads n = PORTE & 3 (the input), masks interrupts for a loop of
; 1 + n turns and clears I again.  Its handler clears OC1F and returns.
; It never programs TOC1: the question is the worst over every moment
; at which the compare may fire, which the abstract clock gives (OC1F
; may set at any instruction boundary once the firmware has touched the
; timer's registers).
;
; OC1F may set at any E cycle; the CPU recognizes a request at the end
; of an instruction (M68HC11 Reference Manual, section 5), so a flag set
; during an instruction counts from that instruction's first cycle at
; the worst.  The interrupt is taken once I is clear, after the one
; instruction that always runs after a CLI (the manual's CLI: I clears
; one E cycle late), and its entry takes 14 cycles.
;
; Cycles (M68HC11 Reference Manual, appendix A; hc11-opcodes.csv).  The
; worst: OC1F sets in the first cycle of SEI (which masks before the end
; of the instruction), n = 3:
;
;   sei 2 + (1 + n) x (decb 2 + bne 3) + cli 2 + nop 2 + entry 14
;     = 2 + 20 + 2 + 2 + 14                                       = 40
;
; Others are shorter: in the instruction before SEI (incb, I clear) it is
; taken at once, 2 + 14; in CLI, 2 + 2 + 14; in the handler's RTI (the
; staa before it withdraws any earlier one), 12 + 14; at the start, in
; the staa that sets OC1I, 4 + cli 2 + ldab 4 + 14.
;
; Expected: --latency toc1:40 verified, toc1:39 violated.

REGS    = 0x1000                ; the register block after reset
PORTE   = 0x0A
TMSK1   = 0x22
TFLG1   = 0x23
OC1F    = 0x80                  ; TFLG1 / TMSK1: OC1F / OC1I

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        ldaa    #OC1F
        staa    TFLG1,x         ; OC1F cleared
        staa    TMSK1,x         ; OC1I: OC1 armed
        cli
        .globl  loop
loop:   ldab    PORTE,x         ; the input
        andb    #3
        incb                    ; 1 + n turns
        sei
delay:  decb
        bne     delay
        cli
        nop                     ; runs before the interrupt
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
