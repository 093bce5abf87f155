// Runs from the UI thread, or any thread that must stay free.
// The blocking call runs on a pool thread; the UI thread stays free until it ends.
static async Task<T> OffTheUiThread<T>(Func<T> blockingCall)
{
    return await Task.Run(blockingCall);
}

// A call that blocks for minutes gets a dedicated thread instead of a pool thread.
static Task<T> OnItsOwnThread<T>(Func<T> longBlockingCall) =>
    Task.Factory.StartNew(longBlockingCall, CancellationToken.None,
        TaskCreationOptions.LongRunning, TaskScheduler.Default);
