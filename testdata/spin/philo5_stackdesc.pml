/*
 * philo5_stackdesc.pml -- the SPIN twin of testdata/bench/philo5_stackdesc.s:
 * the five philosophers with the forks a data symbol (.bss, 0x0000) and
 * the descriptors on thread 0's stack: thread 0 pushes the five, creates
 * four philosophers with the address of theirs and becomes philosopher 0
 * with its own; the stacks (32 bytes each) from 0x0005; eating and
 * thinking are short delay loops (LDAB #2, then DECB / BNE until B is 0).
 *
 * The shape is that of philo5_ordered.pml (see its head), but thread 0's
 * stack is read by every philosopher, so it is the global stk0, and
 * M(s, addr) names the stack s.  XGDY swaps D and Y through t, which is 0
 * again at the end of the step.  A loop's conditional branch is one step,
 * taken or not: the guard `z' or `else' of an if.
 *
 *     spin -a philo5_stackdesc.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m1000000
 *
 * reports no errors.  With every reduction off on both sides both store
 * the same number of states (make compare-spin, TWIN_CHECK=all).
 */

#define FORK       0                       /* 0x0000 fork[0..4] */
#define STACK0     5                       /* 0x0005 stack i: STACK0 + 32 i, 32 bytes */
#define STACK_SIZE 32

#define M(s, addr) s[((addr) - STACK0) % STACK_SIZE]

/* condition codes after a 16-bit load (N, Z, V) */
#define NZV16(r)  n = ((r) < 0); z = ((r) == 0); v = 0
/* LDX #k; PSHX */
#define LDX(k)    d_step { x = k; NZV16(x) }
#define PSHX      d_step { M(stk0, sp) = x % 256; M(stk0, sp - 1) = x / 256; sp = sp - 2 }
/* LDAB #k (0 < k < 128), DECB */
#define LDAB(k)   d_step { b = k; n = 0; z = 0; v = 0 }
#define DECB      d_step { v = (b == 128); b = (b + 255) % 256; n = (b >= 128); z = (b == 0) }
/* DECB; BNE back to it: the delay loop, B = 0 after it */
#define DELAY     do :: DECB; if :: z -> break :: else fi od
/* (a d_step may not be the target of a jump such as the loop's break:
   the instruction after a loop is the one option of an if) */
/* JSR: push the return address 0xD0lo, the address after the JSR */
#define JSR(s, lo) d_step { M(s, sp) = lo; M(s, sp - 1) = 208; sp = sp - 2 }
/* the harness stubs, X = the lock byte; each ends as RTS does */
#define MC_LOCK   d_step { fork[x - FORK] == 0 -> fork[x - FORK] = _pid + 1; sp = sp + 2 }
#define MC_UNLOCK d_step { assert(fork[x - FORK] == _pid + 1); fork[x - FORK] = 0; sp = sp + 2 }

byte fork[5];
byte stk0[STACK_SIZE];                     /* thread 0's stack, 0x0005-0x0024 */
/* the word at a in thread 0's stack: where the descriptors are */
#define DESCW(a)  (M(stk0, a) * 256 + M(stk0, (a) + 1))

/* philosopher(D = the descriptor's address), for ever; s = its stack (a
   macro, not an inline: an inline's argument cannot be an array) */
#define PHILOSOPHER_CODE(s) \
        d_step { t = y; y = a * 256 + b; a = t / 256; b = t % 256; t = 0 }; /* d07c xgdy */ \
        do                                                      /* loop: */ \
        :: d_step { x = DESCW(y); NZV16(x) };                   /* d07e ldx 0,y */ \
        JSR(s, 132);                                            /* d081 jsr __mc_lock */ \
        MC_LOCK; \
        d_step { x = DESCW(y + 2); NZV16(x) };                  /* d084 ldx 2,y */ \
        JSR(s, 138);                                            /* d087 jsr __mc_lock */ \
        MC_LOCK; \
        LDAB(2);                                                /* d08a ldab #2: eat */ \
        DELAY;                                                  /* d08c decb; d08d bne eat */ \
        if :: d_step { x = DESCW(y + 2); NZV16(x) } fi;         /* d08f ldx 2,y */ \
        JSR(s, 149);                                            /* d092 jsr __mc_unlock */ \
        MC_UNLOCK; \
        d_step { x = DESCW(y); NZV16(x) }                       /* d095 ldx 0,y */ \
        JSR(s, 155);                                            /* d098 jsr __mc_unlock */ \
        MC_UNLOCK; \
        LDAB(2);                                                /* d09b ldab #2: think */ \
        DELAY;                                                  /* d09d decb; d09e bne think */ \
        if :: skip fi                                           /* d0a0 bra loop */ \
        od

/* philosophers 1-4, created by main */
proctype philosopher(byte a, b; short sp; bit n, z, v, c) {
        short x, y, t;
        byte stk[STACK_SIZE];
        PHILOSOPHER_CODE(stk)
}

/* the harness's __mc_thread_create, after the JSR: D = the new thread's id */
#define MC_THREAD_CREATE \
        atomic { b = run philosopher(y / 256, y % 256, x, n, z, v, c); a = 0; sp = sp + 2 }
/* one creation: Y = SP + 1 + off (the descriptor), X = the stack top,
   D = philosopher (0xD07C) */
#define CREATE(off, top, lo) \
        y = sp + 1;                                             /* tsy */ \
        LDAB(off);                                              /* ldab #off */ \
        y = y + b;                                              /* aby */ \
        LDX(top);                                               /* ldx #top */ \
        d_step { a = 208; b = 124; n = 1; z = 0; v = 0 };       /* ldd #philosopher */ \
        JSR(stk0, lo);                                          /* jsr __mc_thread_create */ \
        MC_THREAD_CREATE

/* thread 0, from the reset vector */
active proctype main() {
        byte a, b;
        short x, y, t, sp;
        bit n, z, v, c;

        d_step { sp = STACK0 + STACK_SIZE - 1; NZV16(sp) }      /* d00d lds #stacks+31 */
        LDX(FORK + 4); PSHX; LDX(FORK + 0); PSHX;               /* d010 desc[4] */
        LDX(FORK + 4); PSHX; LDX(FORK + 3); PSHX;               /* d018 desc[3] */
        LDX(FORK + 3); PSHX; LDX(FORK + 2); PSHX;               /* d020 desc[2] */
        LDX(FORK + 2); PSHX; LDX(FORK + 1); PSHX;               /* d028 desc[1] */
        LDX(FORK + 1); PSHX; LDX(FORK + 0); PSHX;               /* d030 desc[0] */
        CREATE(4,  STACK0 + 2 * STACK_SIZE - 1, 71);            /* d038 */
        CREATE(8,  STACK0 + 3 * STACK_SIZE - 1, 86);            /* d047 */
        CREATE(12, STACK0 + 4 * STACK_SIZE - 1, 101);           /* d056 */
        CREATE(16, STACK0 + 5 * STACK_SIZE - 1, 116);           /* d065 */
        x = sp + 1;                                             /* d074 tsx */
        d_step { t = x; x = a * 256 + b; a = t / 256; b = t % 256; t = 0 } /* d075 xgdx */
        JSR(stk0, 121);                                         /* d076 jsr philosopher */
        PHILOSOPHER_CODE(stk0)                                  /* never returns */
}
