// Runs in any async .NET code.
// Sums the items a chunk at a time, letting other work run between chunks.
static async Task<long> ProcessInChunks(IEnumerable<long> items, int chunk)
{
    long total = 0;
    foreach (long[] part in items.Chunk(chunk))
    {
        total += part.Sum();
        // Yields; `await Task.CompletedTask` or `await Task.Delay(0)` would go straight on.
        await Task.Yield();
    }
    return total;
}
