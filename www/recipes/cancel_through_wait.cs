// Runs in any async .NET code.
// Cancelling the token ends the delay at once, not after the whole interval.
static async Task<bool> WaitOrCancel(TimeSpan interval, CancellationToken token)
{
    try
    {
        await Task.Delay(interval, token);
        return false;
    }
    catch (OperationCanceledException) { return true; }
}

// On a thread of its own: true as soon as the token is cancelled.
static bool WaitOrCancelBlocking(TimeSpan interval, CancellationToken token) =>
    token.WaitHandle.WaitOne(interval);
