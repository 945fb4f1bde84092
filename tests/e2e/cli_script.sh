# -s with a #!/usr/sbin/dtrace -s line, several clauses, macro arguments,
# options after the script name.
. "$TESTROOT/e2e/lib.sh"
cat > some.d <<'D'
#!/usr/sbin/dtrace -s
BEGIN
{
	n = $1;
}

BEGIN
/n == 5/
{
	printf("n is %d\n", n);
}

END
{
	printf("bye\n");
}

BEGIN
{
	exit(0);
}
D
"$PMCTRACE" -s some.d 5 -q >out 2>err; rc=$?
expect_eq "status" 0 "$rc"
expect_eq "stdout" "$(printf 'n is 5\nbye')" "$(cat out)"
"$PMCTRACE" -s some.d 5 >out 2>err; rc=$?
expect_eq "status" 0 "$rc"
expect_eq "stderr" "pmctrace: script 'some.d' matched 4 probes" "$(cat err)"
exit 0
