// Runs on any page and in any worker.
// A job that awaits a timer holds no thread while it waits, so a batch of
// them takes about one wait, not one wait per job.
export async function job(ms) {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

export function batch(jobs, ms) {
  return Promise.all(Array.from({ length: jobs }, () => job(ms)));
}
