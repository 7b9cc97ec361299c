/**
 * Accepted work per target ("main" or a fee wallet key), the ledger the fee scheduler balances and
 * the API shows as the achieved split. Work is Σ accepted difficulty × the algorithm's factor.
 */
export const MAIN = "main";

export class WorkSplit {
  total = 0;
  readonly byTarget = new Map<string, number>();
  /** work of shares sent but not answered yet, so that decisions do not overshoot */
  readonly inflight = new Map<string, number>();

  credit(target: string, work: number): void {
    this.total += work;
    this.byTarget.set(target, (this.byTarget.get(target) ?? 0) + work);
  }

  work(target: string): number {
    return this.byTarget.get(target) ?? 0;
  }

  feeWork(): number {
    return this.total - this.work(MAIN);
  }

  achieved(target: string): number {
    return this.total > 0 ? this.work(target) / this.total : 0;
  }

  addInflight(target: string, work: number): void {
    this.inflight.set(target, (this.inflight.get(target) ?? 0) + work);
  }

  settleInflight(target: string, work: number): void {
    const v = (this.inflight.get(target) ?? 0) - work;
    if (v <= 1e-9) this.inflight.delete(target);
    else this.inflight.set(target, v);
  }

  pending(target: string): number {
    return this.inflight.get(target) ?? 0;
  }

  pendingTotal(): number {
    let s = 0;
    for (const v of this.inflight.values()) s += v;
    return s;
  }
}
