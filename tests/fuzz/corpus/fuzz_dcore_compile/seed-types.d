struct foo { int a; char b[8]; uint64_t c; };
typedef struct foo foo_t;
foo_t f;
BEGIN { f.a = 1; f.c = 2; print(f); print(f.a); @[f.a, "x"] = sum(3); tracemem(&f, 16); trace(cpu); trace(pid); trace(tid); trace(walltimestamp); trace(vtimestamp); trace(curthread); trace(ppid); trace(uid); trace(probeprov); trace(probemod); trace(probefunc); trace(zonename); trace($target); trace(func(arg0)); trace(mod(arg0)); trace(ufunc(arg0)); trace(sym(arg0)); trace(usym(arg0)); trace(umod(arg0)); trace(uaddr(arg0)); trace(-1 << 3 >> 1 ^ 5 | 6 & ~7 % 3 / 2); trace(!1 && 0 || 1 ^^ 0); trace(1 <= 2 != 3 >= 4); exit(0); }
