; prog.s - firmware for the loader tests (MC68HC11E9, expanded mode).
; Code and constants in ROM at 0xD000, initialised data and bss in RAM,
; a complete interrupt vector table at 0xFFC0. See Makefile.

        .sect   .text
        .globl  _start
        .type   _start,@function
_start:
        lds     #0x01ff
        ldx     #message
        jsr     strlen
        staa    length
        ldd     #3
        jsr     __mc_nondet
        std     counter
loop:   bra     loop
        .size   _start, .-_start

; strlen: A = length of the string at X (a local function)
        .type   strlen,@function
strlen: clra
next:   ldab    0,x
        beq     done
        inca
        inx
        bra     next
done:   rts
        .size   strlen, .-strlen

        .globl  __mc_nondet
        .type   __mc_nondet,@function
__mc_nondet:
        rts
        .size   __mc_nondet, .-__mc_nondet

        .globl  swi_handler
        .type   swi_handler,@function
swi_handler:
        rti
        .size   swi_handler, .-swi_handler

        .type   unused,@function
unused: rti
        .size   unused, .-unused

        .sect   .rodata
message:
        .asciz  "hc11"

        .sect   .data
        .globl  counter
        .type   counter,@object
        .size   counter,2
counter:
        .word   0x1234

        .sect   .bss
length: .skip   1

; 0xFFC0-0xFFF5: SCI ... IRQ; 0xFFF6 SWI; 0xFFF8 illegal opcode;
; 0xFFFA COP failure; 0xFFFC clock monitor; 0xFFFE reset
        .sect   .vectors,"a"
        .rept   27
        .word   unused
        .endr
        .word   swi_handler
        .word   unused
        .word   _start
        .word   _start
        .word   _start
