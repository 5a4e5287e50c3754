; illop_trap_ok.s -- illop_trap.s fixed: greet returns.  Real firmware
; (no harness stubs, the chip's peripherals on); the trap vectors still
; point at the reset code.
;
; Expected verdict: verified.
;
;     void greet(void) {
;         puts(msg);
;     }
;
; The rest is illop_trap.s.

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
        rts
msg:    .asciz  "OK\r\n"

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; 0xFFF8 illegal opcode trap
        .word   _start                  ; 0xFFFA COP failure
        .word   _start                  ; 0xFFFC clock monitor failure
        .word   _start                  ; 0xFFFE reset
