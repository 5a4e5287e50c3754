; wai_tcnt.s -- real firmware, no harness: the CPU waits in WAI while
; bytes arrive, and the receive interrupt reads TCNT (the prescaler at
; its reset value, E/1: one count per E cycle). It keeps the count of the
; first byte; the second byte's count, less the first's and less a frame,
; is the number of E cycles the second byte came after the earliest the
; line allows. When that number is exactly K, it writes to an unmapped
; address (the unmapped property reports it).
;
; A byte can come off the line at any E cycle of the wait, so every
; number from 0 up to the end of the window is possible, K among them:
; a check that lets time pass in steps of several cycles while the CPU
; waits misses it and wrongly verifies the firmware.
;
; An output compare (OC1) closes each window: the first byte may come
; within FRAME+WINDOW cycles of the receiver's start, the second within
; WINDOW cycles after a frame; then the receiver is turned off, so that
; the waits after it have nothing left to choose.
;
;   hc11mc check wai_tcnt.elf --sci-input A --clock exact   unmapped

REGS    = 0x1000
TCNT    = 0x0E
TOC1    = 0x16
TMSK1   = 0x22
TFLG1   = 0x23
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
OC1F    = 0x80
FRAME   = 160           ; BAUD = 0: 10 bits x 16 x 1 x 2^0 E cycles
WINDOW  = 48
K       = 21

        .sect   .bss
got:    .skip   1               ; bytes received
t1:     .skip   2               ; TCNT in the first byte's handler

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        clr     BAUD,x          ; SCP = /1, SCR = /1: the fastest rate
        ldd     TCNT,x
        addd    #FRAME+WINDOW
        std     TOC1,x          ; the first window's end
        ldaa    #OC1F
        staa    TFLG1,x
        staa    TMSK1,x         ; OC1I
        ldaa    #0x24           ; RIE, RE
        staa    SCCR2,x
        cli
loop:   wai
        bra     loop

sci_isr:
        ldaa    SCSR,x
        ldaa    SCDR,x          ; SCSR then SCDR: clears RDRF and OR
        ldd     TCNT,x
        tst     got
        bne     second
        inc     got
        std     t1
        addd    #FRAME+WINDOW
        std     TOC1,x          ; the second window's end
        ldaa    #OC1F
        staa    TFLG1,x
        rti
second: subd    t1
        subd    #FRAME
        cpd     #K
        bne     done
        staa    0x4000          ; exactly K cycles late: unmapped
done:   rti

oc1_isr:
        clr     SCCR2,x         ; the window is over: the receiver off
        ldaa    #OC1F
        staa    TFLG1,x
        rti

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFC0-0xFFD5 reserved
        .word   sci_isr                 ; 0xFFD6 SCI
        .word   0,0,0,0,0,0,0,0         ; 0xFFD8-0xFFE7 SPI ... OC2
        .word   oc1_isr                 ; 0xFFE8 OC1
        .word   0,0,0,0,0,0,0,0,0,0     ; 0xFFEA-0xFFFD
        .word   _start                  ; 0xFFFE reset
