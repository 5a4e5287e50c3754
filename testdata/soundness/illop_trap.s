; illop_trap.s -- real firmware (no harness stubs, the chip's peripherals
; on).  Like much production firmware it points the illegal-opcode trap
; (and the COP and clock-monitor vectors) at its reset code, so that a
; crash restarts the board.  At start-up it sends a greeting; the routine
; that sends it has lost its final RTS and runs on into the text of the
; greeting: 'O' is CLRA, 'K' (0x4B) is no 68HC11 instruction.  The CPU
; traps, the board restarts, greets again, traps again: forever, and no
; instruction the firmware executes looks wrong to a checker that takes
; the trap for a handled event.
;
; Expected verdict: violation `illegal-opcode' (the 0x4B after the
; greeting).
;
;     void greet(void) {
;         puts(msg);
;         /* BUG: no return: runs on into msg, "OK\r\n" */
;     }
;
;     void reset(void) {                        /* also the trap handler */
;         sci_init();
;         greet();
;         for (;;)
;             ;
;     }
;
; Counterexample: reset, the greeting, the fall into msg, CLRA, then the
; fetch of 0x4B at msg+1.  A trap through an installed vector is the
; hardware's answer to an illegal opcode, not proof that the firmware
; meant to execute one: the opcode is a violation whether or not a
; handler catches it.  illop_trap_ok.s is the fixed program.

REGS    = 0x1000                        ; register block (INIT's reset value)
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
TE      = 0x08
TDRE    = 0x80

        .sect   .bss
stack:  .skip   16
stack_top = stack + 15

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        jsr     sci_init
        jsr     greet
idle:   bra     idle

; sci_init: 9600 baud at 8 MHz, transmitter on.
sci_init:
        ldx     #REGS
        ldaa    #0x30
        staa    BAUD,x
        ldaa    #TE
        staa    SCCR2,x
        rts

; puts: send the string at Y, up to its 0.
puts:   ldx     #REGS
pu_next:
        ldaa    0,y
        beq     pu_done
pu_wait:
        brclr   SCSR,x TDRE pu_wait
        staa    SCDR,x
        iny
        bra     pu_next
pu_done:
        rts

; greet: send the greeting.
greet:  ldy     #msg
        jsr     puts
        ; BUG: the RTS is missing: greet runs on into msg
msg:    .asciz  "OK\r\n"

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; 0xFFF8 illegal opcode trap
        .word   _start                  ; 0xFFFA COP failure
        .word   _start                  ; 0xFFFC clock monitor failure
        .word   _start                  ; 0xFFFE reset
