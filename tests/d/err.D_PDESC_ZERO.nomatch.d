/*
 * ASSERTION: a description matching no probes is an error
 * SECTION: Errors
 */
nosuchprovider:::nosuchprobe
{
}
