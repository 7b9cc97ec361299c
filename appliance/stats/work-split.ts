/**
 * Accepted work per target ("main" or a fee wallet key), the ledger the fee scheduler balances and
 * the API shows as the achieved split. Work is Σ accepted difficulty × the algorithm's factor.
 * The main pool's figures are plain fields and fee targets share one lazily created map, because
 * there is one ledger per device and most of its traffic is main.
 */
export const MAIN = "main";

interface FeeEntry {
  work: number;
  inflight: number;
}

export class WorkSplit {
  total = 0;
  private mainWork = 0;
  private mainInflight = 0;
  private inflightSum = 0;
  private fees: Map<string, FeeEntry> | null = null;

  private entry(target: string): FeeEntry {
    this.fees ??= new Map();
    let e = this.fees.get(target);
    if (e === undefined) {
      e = { work: 0, inflight: 0 };
      this.fees.set(target, e);
    }
    return e;
  }

  credit(target: string, work: number): void {
    this.total += work;
    if (target === MAIN) this.mainWork += work;
    else this.entry(target).work += work;
  }

  work(target: string): number {
    return target === MAIN ? this.mainWork : (this.fees?.get(target)?.work ?? 0);
  }

  feeWork(): number {
    return this.total - this.mainWork;
  }

  achieved(target: string): number {
    return this.total > 0 ? this.work(target) / this.total : 0;
  }

  /** work of shares sent but not answered yet, so that decisions do not overshoot */
  addInflight(target: string, work: number): void {
    this.inflightSum += work;
    if (target === MAIN) this.mainInflight += work;
    else this.entry(target).inflight += work;
  }

  settleInflight(target: string, work: number): void {
    this.inflightSum = Math.max(0, this.inflightSum - work);
    if (target === MAIN) this.mainInflight = Math.max(0, this.mainInflight - work);
    else {
      const e = this.fees?.get(target);
      if (e) e.inflight = Math.max(0, e.inflight - work);
    }
  }

  pending(target: string): number {
    return target === MAIN ? this.mainInflight : (this.fees?.get(target)?.inflight ?? 0);
  }

  pendingTotal(): number {
    return this.inflightSum;
  }
}
