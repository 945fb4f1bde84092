#pragma D option quiet
#pragma D option aggsize=4k
inline int LIMIT = 3;
int g; string s; self int t; this int x;
BEGIN { g = 0; s = "hello"; a["k", 1] = 2; }
profile:::tick-1s /g < LIMIT/ { g++; @c[probename] = count(); @s[cpu] = sum(arg0); @q = quantize(g); @l = lquantize(g, 0, 10, 2); @ll = llquantize(g, 10, 0, 6, 20); }
profile:::profile-997 { @st[stack(), ustack(4)] = count(); @m = max(arg0); @n = min(arg1); @a = avg(arg0); @sd = stddev(arg0); self->t = timestamp; }
test:mod:fn:fire /self->t && arg0 > 0/ { this->x = arg0 * 2 + (arg2 ? 1 : 0); printf("%s %d %5.2s %-10s %x %p\n", stringof(args[1]), this->x, s, execname, arg0, (void *)arg0); trace(strlen(copyinstr(arg1))); self->t = 0; }
test:::fire { printf("%s", strjoin(substr(s, 1, 3), lltostr(arg0))); trace(index(s, "l")); trace(basename("/a/b")); trace(toupper(s)); trace(strstr(s, "ll")); }
END { printa("%s %@d\n", @c); printa(@st); normalize(@s, 2); trunc(@c, 1); clear(@m); denormalize(@s); printa(@s); }
ERROR { exit(1); }
