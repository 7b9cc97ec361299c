/**
 * Logins waiting for a lane to become usable (its first session subscribed, logged in, or with a
 * job to give), told once. A waiter, not a promise: in Efficient mode every login waits on a lane of
 * its own, and a promise with its timer and closures was garbage each login left among the miner's
 * long-lived objects (docs/benchmarks.md). A waiter bounds its own wait (the deadline sweep) and
 * calls its lane's `forget` when it gives up. A lane makes its list on first use and drops it once
 * told, so a lane nobody waits on holds none.
 */
export interface LaneWaiter {
  onLaneUsable(lane: object, ok: boolean): void;
}

export class LaneWaiters {
  private readonly list: LaneWaiter[] = [];

  add(w: LaneWaiter): void {
    this.list.push(w);
  }

  forget(w: LaneWaiter): void {
    const i = this.list.indexOf(w);
    if (i >= 0) this.list.splice(i, 1);
  }

  /** Tells every waiter once. */
  tell(lane: object, ok: boolean): void {
    for (const w of this.list.splice(0)) w.onLaneUsable(lane, ok);
  }
}
