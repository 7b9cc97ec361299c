/**
 * Miners that come and go: each mines for 30 s to 3 min, leaves, stays away 5 to 30 s and rejoins,
 * under a new worker name (its generation) when `generation` is given, so that the appliance keeps
 * meeting devices it never saw, or else under its old one.
 */
import type { Fleet } from "../engine/fake-miner.ts";

export interface Churn {
  /** connections made again so far */
  reconnects: number;
  /** resolves when every miner's loop has seen `stop` */
  stopped: Promise<void>;
}

const between = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

/** Sleeps up to `ms`, waking every second to look at `stop`. */
async function pause(ms: number, stop: () => boolean): Promise<void> {
  const until = performance.now() + ms;
  while (!stop() && performance.now() < until) await Bun.sleep(Math.min(1000, until - performance.now()));
}

export function startChurn(fleet: Fleet, generation: number[] | null, stop: () => boolean): Churn {
  const churn: Churn = { reconnects: 0, stopped: Promise.resolve() };
  const cycle = async (i: number) => {
    while (!stop()) {
      await pause(between(30_000, 180_000), stop);
      if (stop()) return;
      fleet.leave(i);
      await pause(between(5_000, 30_000), stop);
      if (stop()) return;
      if (generation) generation[i] = (generation[i] ?? 0) + 1;
      // a refused connection (the box is overloaded) is retried on the next cycle, as a rig would
      await fleet.rejoin(i).then(
        () => churn.reconnects++,
        () => {},
      );
    }
  };
  churn.stopped = Promise.all(fleet.miners.map((_, i) => cycle(i))).then(() => {});
  return churn;
}
