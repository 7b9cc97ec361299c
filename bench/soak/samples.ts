/** One reading of the soak, its CSV, and the least-squares slope of a column per hour. */
export interface Sample {
  minute: number;
  rssBytes: number;
  heapBytes: number;
  openFds: number;
  minersConnected: number;
  poolSessions: number;
  devicesKnown: number;
  sqliteBytes: number;
  acceptedShares: number;
  reconnects: number;
  load1: number;
}

export const COLUMNS: (keyof Sample)[] = [
  "minute",
  "rssBytes",
  "heapBytes",
  "openFds",
  "minersConnected",
  "poolSessions",
  "devicesKnown",
  "sqliteBytes",
  "acceptedShares",
  "reconnects",
  "load1",
];

export function toCsv(samples: Sample[]): string {
  const rows = samples.map((s) => COLUMNS.map((c) => String(Math.round(s[c] * 1000) / 1000)).join(","));
  return `${[COLUMNS.join(","), ...rows].join("\n")}\n`;
}

/** Least-squares slope of `value` against time, in its unit per hour; 0 with fewer than two samples. */
export function slopePerHour(samples: Sample[], value: (s: Sample) => number): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((a, s) => a + s.minute, 0) / n;
  const my = samples.reduce((a, s) => a + value(s), 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const s of samples) {
    sxy += (s.minute - mx) * (value(s) - my);
    sxx += (s.minute - mx) ** 2;
  }
  return sxx === 0 ? 0 : (sxy / sxx) * 60;
}
