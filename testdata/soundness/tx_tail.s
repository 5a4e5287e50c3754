; tx_tail.s -- real firmware (no harness stubs, the chip's peripherals on):
; at power-up a sensor board announces itself on the serial line with a
; three-byte frame, SOH, its address and a checksum, and has nothing else
; to do: its main routine returns with its stack empty, and the firmware
; ends.  The frame is written to SCDR back to back, without waiting for
; TDRE: the first byte goes to the idle shift register, the second waits
; in TDR, and the third replaces it there when the second has not left
; yet.
;
; Expected verdict: violation `output' with
;     --expect-output '\x01[^\x31]'    (SOH not followed by the address:
;                                       a byte of the frame was lost)
;
;     #define SOH  0x01
;     const unsigned char addr = 0x31;          /* ROM: the board's address */
;
;     void main(void) {
;         sci_init();                           /* 9600 baud, TE */
;         delay();                              /* the line driver settles */
;         SCDR = SOH;                           /* BUG: none of the three */
;         SCDR = addr;                          /*   waits for TDRE */
;         SCDR = SOH + addr;
;     }                                         /* returns: the firmware ends */
;
; Counterexample: SOH goes out at once, the address waits in TDR, the
; checksum overwrites it, and the transmitter, done with SOH, sends the
; checksum: "\x01\x32".  That last event must come after the third write
; and before main's RTS ends the only thread (with no thread left the
; line stops).  The RTS finds SP at the top of the stack and touches no
; memory: a reduction that took it for a step private to its thread, to
; be run alone right after the third write, ends the firmware with the
; checksum still in TDR, and never sees the frame that lost its address.
; tx_tail_ok.s is the fixed program.

REGS    = 0x1000                        ; register block (INIT's reset value)
BAUD    = 0x2B
SCCR2   = 0x2D
SCDR    = 0x2F
TE      = 0x08

SOH     = 0x01

        .sect   .bss
stack:  .skip   24
stack_top = stack + 23

        .sect   .rodata
addr:   .byte   0x31                    ; the board's address

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        jsr     sci_init
        jsr     delay
        ldx     #REGS
        ldaa    #SOH
        staa    SCDR,x                  ; BUG: no wait for TDRE here,
        ldaa    addr
        staa    SCDR,x                  ;   here
        adda    #SOH
        staa    SCDR,x                  ;   or here
        rts                             ; main returns: the firmware ends

; sci_init: 9600 baud at 8 MHz, transmitter on.
sci_init:
        ldx     #REGS
        ldaa    #0x30
        staa    BAUD,x
        ldaa    #TE
        staa    SCCR2,x
        rts

; delay: about 60 E cycles, for the line driver.
delay:  ldab    #10
dl_loop:
        decb
        bne     dl_loop
        rts

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
