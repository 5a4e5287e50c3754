; late_mask.s -- real firmware, no harness, the exact clock: a latency
; violation a few dozen transitions from reset, behind a search space a
; depth-first search dives into.
;
;   hc11mc check late_mask.elf --clock exact --input 0x100A=0,1 --latency toc1:30
;
; The firmware arms OC1 to fire K = 300 counts after it reads TCNT and
; clears I. Its main loop reads bit 0 of PORTE (the input) on each turn
; until it has once taken the slow path: with the bit clear it runs a
; masked section (sei, 20 turns of a delay loop, cli), once; otherwise
; it counts a 16-bit counter in RAM. OC1's handler disarms it, so OC1
; comes once. The latency of that one request exceeds 30 cycles only
; when the masked section covers the moment OC1F sets (about the tenth
; turn of the loop): the masked section is 2 + 2 + 20 x (decb 2 + bne 3)
; + cli 2 = 106 cycles, and the handler waits for it and the instruction
; after CLI.
;
; Breadth-first search finds it within a few hundred states. A
; depth-first search that takes the slow path at the wrong moment first
; goes down the counting loop: 65,536 turns of the counter under each of
; the moments it could have chosen, millions of states. The default
; swarm's first member has no target for a timing property (the distance
; heuristics aim at assertions), and searches breadth-first when a timing
; property is checked (portfolio.NewRun).

REGS    = 0x1000
PORTE   = 0x0A
TCNT    = 0x0E
TOC1    = 0x16
TMSK1   = 0x22
TFLG1   = 0x23
OC1F    = 0x80
K       = 300

        .sect   .bss
cnt:    .skip   2
done:   .skip   1

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        ldaa    #OC1F
        staa    TFLG1,x
        staa    TMSK1,x
        ldd     TCNT,x
        addd    #K
        std     TOC1,x
        cli
main:   tst     done
        bne     fast
        ldab    PORTE,x
        bitb    #1
        beq     slow
fast:   jsr     bump            ; a call: --preempt calls ends a transition here
        bra     main
slow:   inc     done
        sei
        ldab    #20
dly:    decb
        bne     dly
        cli
        nop
        bra     main

bump:   ldy     cnt             ; the 16-bit counter
        iny
        sty     cnt
        rts

oc1_isr:
        clr     TMSK1,x
        ldaa    #OC1F
        staa    TFLG1,x
        rti

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0
        .word   0
        .word   0,0,0,0,0,0,0,0
        .word   oc1_isr
        .word   0,0,0,0,0,0,0
        .word   _start
