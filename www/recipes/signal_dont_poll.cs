// Runs in any async .NET code (.NET 5+ for the non-generic TaskCompletionSource).
// RunContinuationsAsynchronously: setting it does not run the waiter on the setter's thread.
static TaskCompletionSource NewSignal() =>
    new(TaskCreationOptions.RunContinuationsAsynchronously);

// Sleeps until signal.TrySetResult() is called; false if `limit` passes first.
static async Task<bool> WaitForSignal(
    TaskCompletionSource signal, TimeSpan limit, CancellationToken token)
{
    try
    {
        await signal.Task.WaitAsync(limit, token);
        return true;
    }
    catch (TimeoutException) { return false; }
}
