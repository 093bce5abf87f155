// Runs from any thread, the UI thread too (.NET 6+ for PeriodicTimer).
// Periodic work that must keep time runs away from the UI thread and is
// aimed at the clock: a PeriodicTimer on the thread pool.
static Task TickOffTheUiThread(TimeSpan period, Action<long> onTick, CancellationToken token) =>
    Task.Run(async () =>
    {
        using var timer = new PeriodicTimer(period);
        long tick = 0;
        while (await timer.WaitForNextTickAsync(token))
        {
            onTick(++tick);
        }
    }, token);
