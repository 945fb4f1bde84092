/*
 * ASSERTION: trace() cannot record an aggregation (printa() prints one)
 * SECTION: Actions/trace
 */
BEGIN
{
	@calls = count();
	trace(@calls);
}
