/*
 * ASSERTION: count() without keys and with string and integer keys prints
 * one row per key, sorted by value then key, after the exit newline.
 * SECTION: Aggregations/count
 */
#pragma D option quiet

BEGIN
{
	@ = count();
	@ = count();
	@s["bash"] = count();
	@s["sshd"] = count();
	@s["sshd"] = count();
	@s["a"] = count();
	@i[3] = count();
	@i[-1] = count();
	@i[3] = count();
	exit(0);
}
