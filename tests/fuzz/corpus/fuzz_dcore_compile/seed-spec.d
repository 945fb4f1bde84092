BEGIN { spec = speculation(); speculate(spec); printf("spec %d", 1); }
test:::fire { speculate(spec); trace(arg0); }
profile:::tick-1s /spec/ { commit(spec); spec = 0; }
END { discard(1); x = (char)arg0; y = (uint16_t)-1; z = sizeof(int64_t); w = offsetof(struct { int a; int b; }, b); }
