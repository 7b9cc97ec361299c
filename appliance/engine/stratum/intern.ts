/**
 * Deduplicates strings that many upstream sessions receive identically (a pool sends the same
 * coinbase halves, prevhash and merkle branch to every session). Efficient mode holds one session
 * per miner, so without this each miner would keep its own copy of every job. Two generations keep
 * the table bounded without tracking use.
 */
const GENERATION = 4096;

let current = new Map<string, string>();
let previous = new Map<string, string>();

/**
 * Parsed notify messages by their exact line: a pool sends the same line to every session, so in
 * Efficient mode one parse (and one Notify object) serves thousands of sessions.
 */
export class LineCache<T> {
  private current = new Map<string, T>();
  private previous = new Map<string, T>();

  constructor(private readonly size: number) {}

  get(line: string): T | undefined {
    return this.current.get(line) ?? this.previous.get(line);
  }

  set(line: string, value: T): void {
    if (this.current.size >= this.size) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(line, value);
  }
}

export function intern(s: string): string {
  const hit = current.get(s) ?? previous.get(s);
  if (hit !== undefined) {
    if (!current.has(s)) current.set(hit, hit);
    return hit;
  }
  if (current.size >= GENERATION) {
    previous = current;
    current = new Map();
  }
  current.set(s, s);
  return s;
}

/**
 * `read` with its results remembered by their string: for values a pool repeats to every session
 * and on every job (a share target), whose reading makes bigints each time.
 */
export function remembered<T>(read: (s: string) => T): (s: string) => T {
  const known = new LineCache<T>(256);
  return (s) => {
    const hit = known.get(s);
    if (hit !== undefined) return hit;
    const value = read(s);
    known.set(s, value);
    return value;
  };
}
