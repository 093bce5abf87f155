// Runs on any page and in any worker.
// setTimeout(resolve, ms) is a minimum: it never fires sooner, often later.
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// To keep to a time, aim at a deadline and see how late you woke.
export async function sleepUntil(deadline) {
  let late = performance.now() - deadline;
  while (late < 0) {
    await sleep(-late);
    late = performance.now() - deadline;
  }
  return late; // ms past the deadline: 0 or more, never less
}
