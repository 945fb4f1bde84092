#pragma D option strsize=16
#pragma D option bufsize=1m
#pragma D option switchrate=10hz
tick-1s { printa("%-20s %@16d\n", @a); setopt("quiet"); }
