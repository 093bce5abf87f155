// Runs in any async .NET code (.NET 6+ for PeriodicTimer).
// Ticks keep to the period's schedule: the time work() takes does not push the next tick back.
static async Task Every(TimeSpan period, Action work, CancellationToken token)
{
    using var timer = new PeriodicTimer(period);
    while (await timer.WaitForNextTickAsync(token))
    {
        work();
    }
}
