// Runs in any async .NET code (System.Threading.Channels).
using System.Threading.Channels;

// A producer hands items to this consumer; a full channel makes the producer wait.
static async Task HandOff(
    IEnumerable<long> items, Action<long> consume, CancellationToken token)
{
    var channel = Channel.CreateBounded<long>(64);
    var producer = Task.Run(async () =>
    {
        try { foreach (long item in items) await channel.Writer.WriteAsync(item, token); }
        finally { channel.Writer.Complete(); }
    });
    await foreach (long item in channel.Reader.ReadAllAsync(token)) consume(item);
    await producer;
}
