/**
 * One port's open minute of work per target ("main" or a fee wallet key), for the hourly fee audit.
 * Counted from the same share results as the port's tally; drained by the registry's minute tick.
 * As in WorkSplit, main is plain fields and fee targets share one lazily made map: on the share
 * path a result costs a field update or one map lookup, and an entry is made only when a target
 * first gets a share in a minute after a silent one.
 */
import type { TargetSample } from "../domain/engine.ts";
import { MAIN } from "./work-split.ts";

interface Counts {
  acceptedWork: number;
  rejectedWork: number;
  acceptedShares: number;
  rejectedShares: number;
}

const zero = (): Counts => ({ acceptedWork: 0, rejectedWork: 0, acceptedShares: 0, rejectedShares: 0 });

export class TargetMinutes {
  private readonly main = zero();
  private fees: Map<string, Counts> | null = null;

  private of(target: string): Counts {
    if (target === MAIN) return this.main;
    this.fees ??= new Map();
    let c = this.fees.get(target);
    if (c === undefined) {
      c = zero();
      this.fees.set(target, c);
    }
    return c;
  }

  accepted(target: string, work: number): void {
    const c = this.of(target);
    c.acceptedWork += work;
    c.acceptedShares++;
  }

  rejected(target: string, work: number): void {
    const c = this.of(target);
    c.rejectedWork += work;
    c.rejectedShares++;
  }

  /**
   * Hands every target that had shares in the closed minute to `emit` and starts the next minute.
   * A fee target silent for a whole minute is dropped, so removed wallets do not pile up.
   */
  drain(portId: number, minute: number, emit: ((s: TargetSample) => void) | null): void {
    this.emitOne(portId, minute, MAIN, this.main, emit);
    if (this.fees === null) return;
    for (const [target, c] of this.fees) {
      if (c.acceptedShares + c.rejectedShares === 0) this.fees.delete(target);
      else this.emitOne(portId, minute, target, c, emit);
    }
  }

  private emitOne(
    portId: number,
    minute: number,
    target: string,
    c: Counts,
    emit: ((s: TargetSample) => void) | null,
  ): void {
    if (c.acceptedShares + c.rejectedShares === 0) return;
    emit?.({ portId, minute, target, ...c });
    c.acceptedWork = c.rejectedWork = c.acceptedShares = c.rejectedShares = 0;
  }
}
