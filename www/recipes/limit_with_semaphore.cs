// Runs in any async .NET code.
// At most `limit` jobs run at once; the others await the gate without holding a thread.
static async Task RunLimited(IEnumerable<Func<Task>> jobs, int limit, CancellationToken token)
{
    using var gate = new SemaphoreSlim(limit);
    await Task.WhenAll(jobs.Select(async job =>
    {
        await gate.WaitAsync(token);
        try { await job(); }
        finally { gate.Release(); }
    }));
}
