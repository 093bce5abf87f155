// Runs on a thread that may block, never the UI thread.
// Spins up to `spins` times, then blocks until Set(); true if the spinning saw it set.
static bool WaitFor(ManualResetEventSlim ready, int spins, CancellationToken token)
{
    var spinner = new SpinWait();
    while (spinner.Count < spins)
    {
        if (ready.IsSet) return true;
        spinner.SpinOnce(sleep1Threshold: -1);
    }
    ready.Wait(token);
    return false;
}

// ManualResetEventSlim does this by itself: new ManualResetEventSlim(false, spinCount: 100).
