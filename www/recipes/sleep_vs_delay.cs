// Runs in any async .NET code.
// n jobs that each await a timer: no thread sleeps, so the batch takes about `each`.
static async Task Batch(int n, TimeSpan each)
{
    await Task.WhenAll(Enumerable.Range(0, n).Select(_ => Task.Delay(each)));
}
