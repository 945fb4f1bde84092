# ASSERTION: unbounded or wrong input is refused promptly and the first
# ^C/SIGTERM is honoured while reading; a failed or killed -E recording
# leaves no file that a later -E would replay:
#  - -s of a directory, of /dev/zero (16 MiB cap), of text with a NUL byte;
#  - -E of /dev/zero or /dev/urandom: refused after its first bytes;
#  - a stalled pipe (-s -, -E FIFO): SIGINT ends the read at once;
#  - -E rec.data that fails to enable, or is killed: no rec.data.
. "$TESTROOT/e2e/lib.sh"
need_root
P=$PMCTRACE
# err_is NAME WANT CMD...: exit status 1 within 20 s and exactly that stderr
err_is() {
	name=$1 want=$2; shift 2
	timeout 20 "$@" >out 2>err; rc=$?
	expect_eq "$name: exit status" 1 "$rc"
	expect_eq "$name: message" "$want" "$(cat err)"
}
mkdir d
err_is "-s directory" "pmctrace: failed to open d: Is a directory" "$P" -s d
err_is "-s /dev/zero" "pmctrace: failed to open /dev/zero: larger than a D program may be (16 MiB)" "$P" -s /dev/zero
printf 'BEGIN { exit(0); }\0BEGIN { printf("hidden\\n"); }' > nul.d
err_is "NUL byte" "pmctrace: failed to open nul.d: a NUL byte in the program text" "$P" -s nul.d
for f in /dev/zero /dev/urandom; do
	err_is "-E $f" "pmctrace: failed to open $f: perf.data: bad magic at offset 0: not a perf.data file" \
	    "$P" -q -E $f -n 'profile-99 { }'
done

# a stalled pipe: the first SIGINT ends the read.  reading PID: until the
# pmctrace under PID (a timeout) blocks in read(2), in $c
reading() {
	i=0
	while :; do
		c=$(pgrep -x pmctrace -P "$1")
		[ -n "$c" ] && [ "$(cut -d' ' -f1 /proc/$c/syscall 2>/dev/null)" = 0 ] && return 0
		i=$((i+1)); [ $i -gt 200 ] && fail "pmctrace never blocked reading"; sleep 0.1
	done
}
mkfifo fifo
( printf 'PERFILE2'; exec sleep 30 ) > fifo & feeder=$!
timeout 20 "$P" -q -E fifo -n 'profile-99 { }' 2>err & pm=$!
reading $pm
kill -INT $c; wait $pm; rc=$?
kill $feeder 2>/dev/null; wait $feeder 2>/dev/null
expect_eq "-E FIFO ^C: exit status" 1 "$rc"
expect_eq "-E FIFO ^C: message" "pmctrace: failed to open fifo: Interrupted system call" "$(cat err)"
( printf 'BEGIN { exit(0); }\n'; exec sleep 30 ) > fifo & feeder=$!
timeout 20 "$P" -s - < fifo 2>err & pm=$!
reading $pm
kill -INT $c; wait $pm; rc=$?
kill $feeder 2>/dev/null; wait $feeder 2>/dev/null
expect_eq "-s - ^C: exit status" 1 "$rc"
expect_eq "-s - ^C: message" "pmctrace: failed to open -: Interrupted system call" "$(cat err)"

# a recording that fails to enable leaves no file (a 64 GiB ring is beyond
# what the kernel maps for one CPU)
"$P" -q -E rec.data -x bufsize=64g -n 'profile-99 { @ = count(); } tick-1s { exit(0); }' 2>err
[ $? = 1 ] || { cat err; fail "the 64 GiB ring was mapped: the test proves nothing"; }
[ -z "$(ls rec.data* 2>/dev/null)" ] || { ls -l rec.data*; fail "a failed recording left a file"; }
# a killed one leaves only its temporary file, which the next one removes
"$P" -q -E rec.data -n 'BEGIN { printf("ready\n"); } profile-99 { @ = count(); }' >out 2>err & pm=$!
wait_ready out
kill -KILL $pm; wait $pm 2>/dev/null
[ ! -e rec.data ] || fail "a killed recording left rec.data"
[ -e rec.data.pmctrace-$pm ] || fail "no temporary file: the test proves nothing"
"$P" -q -E rec.data -n 'profile-99 { @ = count(); } tick-1s { exit(0); }' >out 2>err || { cat err; fail "recording"; }
[ -z "$(ls rec.data.* 2>/dev/null)" ] || { ls -l rec.data.*; fail "temporary files remain"; }
"$P" -q -E rec.data -n 'profile-99 { @ = count(); } END { printa("%@d\n", @); }' >out 2>err ||
	{ cat err; fail "replay of the recording"; }
[ "$(cat out | tr -d '\n ')" -gt 0 ] || fail "the replay counted nothing"
exit 0
