/*
 * philo5_above.pml -- the SPIN twin of testdata/bench/philo5_above.s: the
 * five philosophers with the forks at 0x0180, above the stacks (32 bytes
 * each from 0x0080); the descriptors in ROM, read through Y; thread 0
 * creates four philosophers and then becomes philosopher 0 itself;
 * eating and thinking are NOPs.
 *
 * The shape is that of philo5_ordered.pml (see its head); ROM is constant,
 * so it is no variable: ROMW(addr) is the word the image holds at addr.
 * XGDY swaps D and Y through t, which is 0 again at the end of the step.
 *
 *     spin -a philo5_above.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m1000000
 *
 * reports no errors.  With every reduction off on both sides both store
 * the same number of states (make compare-spin, TWIN_CHECK=all).
 */

#define FORK       384                     /* 0x0180 fork[0..4] */
#define STACK0     128                     /* 0x0080 stack i: STACK0 + 32 i, 32 bytes */
#define STACK_SIZE 32
#define DESC       53355                   /* 0xd06b desc: the descriptors, in ROM */

#define M(addr)   stk[((addr) - STACK0) % STACK_SIZE]
/* the word at ROM address a: desc[i] = fork + lo(i), fork + hi(i) */
#define ROMW(a)   (FORK + ((a) == DESC      -> 0 : ((a) == DESC + 2  -> 1 : \
                          ((a) == DESC + 4  -> 1 : ((a) == DESC + 6  -> 2 : \
                          ((a) == DESC + 8  -> 2 : ((a) == DESC + 10 -> 3 : \
                          ((a) == DESC + 12 -> 3 : ((a) == DESC + 14 -> 4 : \
                          ((a) == DESC + 16 -> 0 : 4))))))))))

/* condition codes after a 16-bit load (N, Z, V); U16 for an unsigned register */
#define NZV16(r)  n = ((r) < 0); z = ((r) == 0); v = 0
#define NZVU16(r) n = ((r) >= 32768); z = ((r) == 0); v = 0
/* JSR: push the return address 0xD0lo, the address after the JSR */
#define JSR(lo)   d_step { M(sp) = lo; M(sp - 1) = 208; sp = sp - 2 }
/* the harness stubs, X = the lock byte; each ends as RTS does */
#define MC_LOCK   d_step { fork[x - FORK] == 0 -> fork[x - FORK] = _pid + 1; sp = sp + 2 }
#define MC_UNLOCK d_step { assert(fork[x - FORK] == _pid + 1); fork[x - FORK] = 0; sp = sp + 2 }

byte fork[5];

/* philosopher(D = the descriptor's address), for ever */
inline philosopher_code() {
        d_step { t = y; y = a * 256 + b; a = t / 256; b = t % 256; t = 0 } /* d04d xgdy */
        do                                                      /* loop: */
        :: d_step { x = ROMW(y); NZV16(x) }                     /* d04f ldx 0,y */
        JSR(85);                                                /* d052 jsr __mc_lock */
        MC_LOCK;
        d_step { x = ROMW(y + 2); NZV16(x) }                    /* d055 ldx 2,y */
        JSR(91);                                                /* d058 jsr __mc_lock */
        MC_LOCK;
        skip;                                                   /* d05b nop: eat */
        d_step { x = ROMW(y + 2); NZV16(x) }                    /* d05c ldx 2,y */
        JSR(98);                                                /* d05f jsr __mc_unlock */
        MC_UNLOCK;
        d_step { x = ROMW(y); NZV16(x) }                        /* d062 ldx 0,y */
        JSR(104);                                               /* d065 jsr __mc_unlock */
        MC_UNLOCK;
        skip;                                                   /* d068 nop: think */
        skip                                                    /* d069 bra loop */
        od
}

/* philosophers 1-4, created by main */
proctype philosopher(byte a, b; short sp; bit n, z, v, c) {
        short x;
        unsigned y : 16;
        unsigned t : 16;
        byte stk[STACK_SIZE];
        philosopher_code()
}

/* the harness's __mc_thread_create, after the JSR: D = the new thread's id */
#define MC_THREAD_CREATE \
        atomic { b = run philosopher(y / 256, y % 256, x, n, z, v, c); a = 0; sp = sp + 2 }
/* one creation: Y = the argument, X = the stack top, D = philosopher (0xD04D) */
#define CREATE(arg, top, lo) \
        d_step { y = arg; NZVU16(y) };                          /* ldy #arg */ \
        d_step { x = top; NZV16(x) };                           /* ldx #top */ \
        d_step { a = 208; b = 77; n = 1; z = 0; v = 0 };        /* ldd #philosopher */ \
        JSR(lo);                                                /* jsr __mc_thread_create */ \
        MC_THREAD_CREATE

/* thread 0, from the reset vector */
active proctype main() {
        byte a, b;
        short x, sp;
        unsigned y : 16;
        unsigned t : 16;
        bit n, z, v, c;
        byte stk[STACK_SIZE];

        d_step { sp = STACK0 + STACK_SIZE - 1; NZV16(sp) }      /* d00d lds #STACKS+31 */
        CREATE(DESC + 4,  STACK0 + 2 * STACK_SIZE - 1, 29);     /* d010 */
        CREATE(DESC + 8,  STACK0 + 3 * STACK_SIZE - 1, 42);     /* d01d */
        CREATE(DESC + 12, STACK0 + 4 * STACK_SIZE - 1, 55);     /* d02a */
        CREATE(DESC + 16, STACK0 + 5 * STACK_SIZE - 1, 68);     /* d037 */
        d_step { a = 208; b = 107; n = 1; z = 0; v = 0 };       /* d044 ldd #desc */
        JSR(74);                                                /* d047 jsr philosopher */
        philosopher_code()                                      /* never returns */
}
