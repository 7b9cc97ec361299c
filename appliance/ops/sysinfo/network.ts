/** Network byte counters from /proc/net/dev, loopback excluded (it is not traffic of the box). */

export interface InterfaceCounters {
  name: string;
  rx_bytes: number;
  tx_bytes: number;
}

/** Every interface except lo, in file order. Header lines have no ":" before the numbers and are skipped. */
export function parseNetDev(text: string): InterfaceCounters[] {
  const out: InterfaceCounters[] = [];
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const name = line.slice(0, colon).trim();
    const fields = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    // receive: bytes packets errs drop fifo frame compressed multicast; transmit starts at field 8
    if (name === "" || name === "lo" || fields.length < 9) continue;
    const rx = fields[0];
    const tx = fields[8];
    if (rx === undefined || tx === undefined || !Number.isFinite(rx) || !Number.isFinite(tx)) continue;
    out.push({ name, rx_bytes: rx, tx_bytes: tx });
  }
  return out;
}

export interface NetworkTotals {
  rx_bytes: number;
  tx_bytes: number;
}

export function sumCounters(ifaces: readonly InterfaceCounters[]): NetworkTotals {
  let rx = 0;
  let tx = 0;
  for (const i of ifaces) {
    rx += i.rx_bytes;
    tx += i.tx_bytes;
  }
  return { rx_bytes: rx, tx_bytes: tx };
}

/**
 * Bytes per second between two totals. A counter that went backwards (interface removed or reset) gives
 * 0 for that interval rather than a negative or absurd rate.
 */
export function byteRate(prev: number, cur: number, seconds: number): number {
  if (seconds <= 0 || cur < prev) return 0;
  return Math.round((cur - prev) / seconds);
}
