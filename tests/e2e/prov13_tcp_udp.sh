# tcp and udp providers: a loopback TCP connection and UDP datagrams the
# test makes (python3), checked for bytes, addresses, ports and states.
# On a loaded machine: the workload starts once pmctrace says ready (its
# probes are enabled before BEGIN), and pmctrace stops on SIGINT once the
# workload is done (the rings are drained then), never on a timer.
. "$TESTROOT/e2e/lib.sh"
need_root
for e in tcp/tcp_probe sock/inet_sock_set_state sock/sock_send_length sock/sock_recv_length; do
	[ -d /sys/kernel/tracing/events/$e ] || skip "no $e tracepoint in tracefs"
done
command -v python3 >/dev/null || skip "no python3 for the socket workload"
cat >w.py <<'PY'
import socket, threading
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
port = srv.getsockname()[1]
def serve():
    c, _ = srv.accept()
    while c.recv(65536): pass
    c.close()
t = threading.Thread(target=serve); t.start()
cl = socket.create_connection(("127.0.0.1", port))
for i in range(50): cl.sendall(b"x" * 1000)
cl.close(); t.join()
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 0))
v = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(40): v.sendto(b"y" * 100, u.getsockname()); u.recv(200)
print(port)
PY
"$PMCTRACE" -l -P tcp >list 2>&1
for p in send receive state-change connect-request connect-established connect-refused accept-established; do
	grep -Eq " tcp +$p\$" list || { cat list; fail "tcp:::$p not listed"; }
done
"$PMCTRACE" -qn '
tcp:::send, tcp:::receive { @[probename, args[2]->ip_daddr] = count(); }
tcp:::send /execname == "python3"/ { @b = sum(args[2]->ip_plength); }
tcp:::connect-established, tcp:::accept-established {
	printf("%s %d %d %d %d\n", probename, args[4]->tcp_sport, args[4]->tcp_dport,
	    args[3]->tcps_state == TCP_STATE_ESTABLISHED, args[3]->tcps_active);
}
udp:::send, udp:::receive /execname == "python3"/ { @u[probename] = sum(arg0); }
BEGIN { printf("ready\n"); }
END { printa("bytes=%@d\n", @b); }' >out 2>err &
p=$!
wait_ready out
port=$(python3 w.py) || fail "workload failed"
kill -INT $p
wait $p || { cat err; fail "status $?"; }
expect_grep '^bytes=50000$' out
grep -Eq '^  send +127\.0\.0\.1 +(5[0-9]|[6-9][0-9])$' out || { cat out; fail "tcp:::send to 127.0.0.1"; }
grep -Eq '^  receive +127\.0\.0\.1 +[0-9]+$' out || { cat out; fail "tcp:::receive at 127.0.0.1"; }
expect_grep "^connect-established [0-9]* $port 1 1\$" out
expect_grep "^accept-established $port [0-9]* 1 0\$" out
grep -Eq '^  send +4000$' out && grep -Eq '^  receive +4000$' out || { cat out; fail "udp send/receive 40 x 100 bytes"; }

# the issue's one-liner, as written, plus a BEGIN clause that says ready
"$PMCTRACE" -n 'tcp:::send, tcp:::receive { @[probename, args[2]->ip_daddr] = count(); }' \
    -n 'BEGIN { printf("ready\n"); }' >out2 2>err2 &
p=$!
wait_ready out2 ':BEGIN ready$'
python3 w.py >/dev/null || fail "workload failed"
kill -INT $p; wait $p
grep -Eq '^  send +127\.0\.0\.1 +[0-9]+$' out2 || { cat out2 err2; fail "one-liner: no send to 127.0.0.1"; }
exit 0
