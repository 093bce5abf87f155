// Runs in any async .NET code.
using System.Diagnostics;

// Task.Delay is a minimum, not a promise: aim at a deadline and measure how late it woke.
static async Task<TimeSpan> DelayUntil(Stopwatch clock, TimeSpan deadline)
{
    TimeSpan left;
    while ((left = deadline - clock.Elapsed) > TimeSpan.Zero)
    {
        await Task.Delay(left);
    }
    return clock.Elapsed - deadline; // zero or more, never less
}
