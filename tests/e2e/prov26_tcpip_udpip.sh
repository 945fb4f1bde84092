# tcpip and udpip, the seeds' names of tcp and udp: another name of the
# same probes, so a clause naming both fires once per event (50 x 1000 TCP
# bytes and 40 x 100 UDP bytes that a -c workload sends, counted once).
. "$TESTROOT/e2e/lib.sh"
need_root
for e in tcp/tcp_probe sock/inet_sock_set_state sock/sock_send_length sock/sock_recv_length; do
	[ -d /sys/kernel/tracing/events/$e ] || skip "no $e tracepoint in tracefs"
done
command -v python3 >/dev/null || skip "no python3 for the socket workload"
cat >w.py <<'PY'
import socket, threading
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
def serve():
    c, _ = srv.accept()
    while c.recv(65536): pass
    c.close()
t = threading.Thread(target=serve); t.start()
cl = socket.create_connection(srv.getsockname())
for i in range(50): cl.sendall(b"x" * 1000)
cl.close(); t.join()
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 0))
v = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(40): v.sendto(b"y" * 100, u.getsockname()); u.recv(200)
PY
"$PMCTRACE" -lv -n tcpip:::send >list 2>&1 || { cat list; fail "tcpip:::send not listed"; }
grep -Eq ' tcp +send$' list && grep -q 'args\[2\]: ipinfo_t \*' list || { cat list; fail "tcpip:::send is not tcp:::send with its types"; }
"$PMCTRACE" -lv -n udpip:::receive >list 2>&1 || { cat list; fail "udpip:::receive not listed"; }
grep -Eq ' udp +receive$' list && grep -q 'args\[0\]: uint64_t' list || { cat list; fail "udpip:::receive is not udp:::receive"; }
prog='
tcpip:::send, tcp:::send /pid == $target/ { @t = sum(args[2]->ip_plength); @n = count(); }
udpip:::send, udp:::send /pid == $target/ { @u = sum(arg0); }
udpip:::receive /pid == $target/ { @r = sum(arg0); }
END { printa("tcp=%@d", @t); printa(" sends=%@d", @n); printa(" udp=%@d", @u); printa(" udprecv=%@d\n", @r); }'
"$PMCTRACE" -E tcpip.data -qn "$prog" -c "python3 w.py" >out 2>err || { cat err; fail "status $?"; }
n=$(sed -n 's/.* sends=\([0-9]*\) .*/\1/p' out)
[ -n "$n" ] && [ "$n" -le 50 ] || { cat out; fail "tcp sends counted more than once: $n"; }
expect_eq "tcpip/udpip bytes" "tcp=50000 sends=$n udp=4000 udprecv=4000" "$(grep -v '^$' out)"
# the recording replays with the same script (its $target: the pid it had)
pid=$(sed -n 's/^pmctrace: pid \([0-9]*\) .*/\1/p' err)
[ -n "$pid" ] || { cat err; fail "no pid of the workload"; }
"$PMCTRACE" -E tcpip.data -qn "$(printf "%s\n" "$prog" | sed "s/\\\$target/$pid/g")" >rout 2>rerr || { cat rerr; fail "replay: status $?"; }
expect_eq "tcpip/udpip replayed" "$(grep -v '^$' out)" "$(grep -v '^$' rout)"
